// Charts and PDF in a build without cairo + pango: every entry point says why not.
#include "core/errors.hpp"
#include "reports/render/charts.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {
constexpr const char* reason =
    "built without cairo + pango (Debian: libcairo2-dev libpango1.0-dev), so no charts or PDF";
}

std::optional<std::string> charts_unavailable() {
  return std::string(reason);
}

std::string chart_svg(const line_chart&, const std::string&) {
  return {};
}
std::string heatmap_svg(const heatmap&, const std::string&) {
  return {};
}
std::string diagram_svg(const diagram&, const std::string&) {
  return {};
}

void write_pdf(const document&, const std::filesystem::path& path) {
  throw core::usage_error("cannot write " + path.string() + ": this gpubench was " + reason);
}

}  // namespace gpubench::reports::render
