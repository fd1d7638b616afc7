#include "core/reporters/json_file_reporter.hpp"

#include "core/result_json.hpp"

namespace gpubench::core {

void json_file_reporter::write(const result_file& file) {
  write_result_file(m_path, file);
}

}  // namespace gpubench::core
