// What the tests of the field's real output share: a file of the shared folder imported as
// `gpubench report` would, with its headline rows and findings (import_real*_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "reports/model/report_inputs.hpp"
#include "reports/page_one/findings/finding.hpp"
#include "reports/page_one/headline_table.hpp"
#include "tests/unit/import_fixtures.hpp"

namespace gpubench::test_import {

namespace findings = reports::page_one::findings;

struct imported_run {
  reports::model::run_input run;
  std::vector<findings::finding> found;
  std::vector<reports::page_one::headline_row> headline;
};

// A fixture whose SetUp sets folder_ (or skips, saying why).
class RealOutputs : public ::testing::Test {
 protected:
  // Imports one file (its source block stripped) as `gpubench report` would, and evaluates it.
  imported_run load(const std::string& name, const std::string& op = {}) {
    reports::import::import_options o;
    o.name = name;
    o.operation = op;
    imported_run r;
    r.run.path = name;
    r.run.file = reports::import::import_text(real_output(*folder_ / name), o);
    std::vector<reports::model::run_input> runs{r.run};
    reports::model::check_and_label(runs);
    r.run = runs.front();
    r.found = findings::evaluate(r.run);
    r.headline = reports::page_one::headline_rows(r.run);
    return r;
  }

  static bool has_finding(const imported_run& r, const std::string& rule,
                          const std::string& part = {}) {
    return std::any_of(r.found.begin(), r.found.end(), [&](const auto& f) {
      return f.rule == rule &&
             (f.title + " " + f.evidence + " " + f.subject).find(part) != std::string::npos;
    });
  }

  std::optional<std::filesystem::path> folder_;
};

}  // namespace gpubench::test_import
