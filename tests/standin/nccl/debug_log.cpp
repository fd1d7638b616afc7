#include "debug_log.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpubench::tests::standin::nccl {

namespace {

void write_line(const char* level, int device, const std::string& text) {
  const char* debug = std::getenv("NCCL_DEBUG");
  const char* file = std::getenv("NCCL_DEBUG_FILE");
  if (!file && !debug) return;
  // INFO lines only when asked for (NCCL_DEBUG=INFO); WARN lines at WARN and INFO.
  if (std::strcmp(level, "INFO") == 0 && (!debug || std::strcmp(debug, "INFO") != 0)) return;
  char host[64] = {};
  ::gethostname(host, sizeof host - 1);
  std::FILE* out = file ? std::fopen(file, "a") : stderr;
  if (!out) return;
  std::fprintf(out, "%s:%d:%ld [%d] NCCL %s %s\n", host, static_cast<int>(::getpid()),
               static_cast<long>(::syscall(SYS_gettid)), device, level, text.c_str());
  if (file) std::fclose(out);
}

}  // namespace

void log_warn(int device, const std::string& text) {
  write_line("WARN", device, text);
}

void log_info(int device, const std::string& text) {
  write_line("INFO", device, text);
}

}  // namespace gpubench::tests::standin::nccl
