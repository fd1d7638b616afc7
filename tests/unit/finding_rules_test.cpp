// The table of finding rules (reports/findings/rules.hpp): one line per rule, and each line's id
// is the id that rule's findings carry, so the table can be read as the list of what a report
// may say.
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/result_json.hpp"
#include "reports/page_one/findings/rules.hpp"

namespace gpubench::reports::page_one::findings {
namespace {

TEST(FindingRuleTable, IdsAreUnique) {
  std::set<std::string_view> ids;
  for (const auto& r : all_rules())
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
  EXPECT_EQ(ids.size(), all_rules().size());
}

TEST(FindingRuleTable, FindingsCarryTheirRulesId) {
  const std::filesystem::path data(GPUBENCH_TEST_DATA);
  std::set<std::string_view> fired;
  for (const char* folder : {"findings", "reports"})
    for (const auto& entry : std::filesystem::directory_iterator(data / folder)) {
      if (entry.path().extension() != ".json") continue;
      const core::result_file file = core::read_result_file(entry.path());
      for (const auto& r : all_rules())
        for (const auto& f : r.run(file, {})) {
          EXPECT_EQ(f.rule, r.id) << entry.path();
          fired.insert(r.id);
        }
    }
  // The fixtures plant a finding for most rules; the check above means something only then.
  EXPECT_GE(fired.size(), 5u);
}

}  // namespace
}  // namespace gpubench::reports::page_one::findings
