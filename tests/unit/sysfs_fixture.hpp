// A throw-away directory tree standing in for sysfs in unit tests: files with one line of text
// and symbolic links, removed with the fixture.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace gpubench::test {

class sysfs_fixture {
 public:
  sysfs_fixture() {
    std::random_device rd;
    m_root = std::filesystem::temp_directory_path() /
             ("gpubench-sysfs-" + std::to_string(rd()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(m_root);
  }
  ~sysfs_fixture() {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }
  sysfs_fixture(const sysfs_fixture&) = delete;
  sysfs_fixture& operator=(const sysfs_fixture&) = delete;

  void write(const std::filesystem::path& rel, const std::string& text) {
    std::filesystem::create_directories((m_root / rel).parent_path());
    std::ofstream(m_root / rel) << text << "\n";
  }
  // A link at `rel` to `target` (absolute, usually under root()).
  void link(const std::filesystem::path& rel, const std::filesystem::path& target) {
    std::filesystem::create_directories((m_root / rel).parent_path());
    std::filesystem::create_directory_symlink(target, m_root / rel);
  }
  void mkdir(const std::filesystem::path& rel) {
    std::filesystem::create_directories(m_root / rel);
  }
  const std::filesystem::path& root() const { return m_root; }

 private:
  std::filesystem::path m_root;
};

}  // namespace gpubench::test
