// Family options are checked by the registry, whether or not their benchmark is selected.
#include <gtest/gtest.h>

#include <string>

#include "benchmarks/register_all.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"

using namespace gpubench;

namespace {

core::run_context with_option(const core::registry& r, const std::string& name,
                              const std::string& value) {
  core::run_context ctx;
  for (const auto& spec : r.options())
    ctx.options[spec.name] = spec.default_value;  // what `run` starts from
  ctx.options[name] = value;
  return ctx;
}

std::string check_error(const core::registry& r, const core::run_context& ctx) {
  try {
    r.check_options(ctx);
  } catch (const core::usage_error& e) {
    return e.what();
  } catch (const core::input_error& e) {  // an unreadable --token-file: exit 2 as well
    return e.what();
  }
  return "";
}

}  // namespace

TEST(OptionCheck, DefaultsPassEveryCheck) {
  core::registry r;
  benchmarks::register_all(r);
  EXPECT_EQ(check_error(r, with_option(r, "streams", "")), "");
}

TEST(OptionCheck, BadValuesOfEveryFamilyAreRefused) {
  core::registry r;
  benchmarks::register_all(r);
  const std::pair<const char*, const char*> bad[] = {{"busy-poll", "x"},
                                                     {"dtype", "xxx"},
                                                     {"on-error", "later"},
                                                     {"io-timeout", "0"},
                                                     {"streams", "0"},
                                                     {"rdma-op", "fly"},
                                                     {"rdma-port", "999"},
                                                     {"backend", "gloo"},
                                                     {"place", "sideways"},
                                                     {"ranks", "0"},
                                                     {"coll-timeout", "0"},
                                                     {"nodes", "two"},
                                                     {"token-file", "/nonexistent/gpubench-token"}};
  for (const auto& [name, value] : bad) {
    const std::string message = check_error(r, with_option(r, name, value));
    EXPECT_FALSE(message.empty()) << "--" << name << " " << value << " was accepted";
  }
  EXPECT_NE(check_error(r, with_option(r, "busy-poll", "x")).find("--busy-poll"),
            std::string::npos);
}

TEST(OptionCheck, SharedOptionKeepsTheFirstCheckGiven) {
  core::registry r;
  r.add_option({"streams", "help", ""});
  r.add_option({"streams", "help", "", false,
                [](const core::run_context&) { throw core::usage_error("--streams: bad"); }});
  ASSERT_EQ(r.options().size(), 1u);
  EXPECT_EQ(check_error(r, {}), "--streams: bad");
}
