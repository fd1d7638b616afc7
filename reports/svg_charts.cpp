// Charts as SVG through cairo's SVG surface, for embedding in the HTML report.
#include <cairo-svg.h>

#include <memory>
#include <stdexcept>

#include "reports/chart_drawing.hpp"
#include "reports/charts.hpp"

namespace gpubench::reports {

namespace {

constexpr double svg_width = 760;

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

// cairo names glyphs and clips "glyph0-1", "clip1" in every document; inline SVGs share one
// id space in HTML, so each chart's ids get their own prefix.
std::string inline_svg(std::string svg, const std::string& prefix) {
  if (const auto start = svg.find("<svg"); start != std::string::npos) svg.erase(0, start);
  replace_all(svg, "id=\"", "id=\"" + prefix);
  replace_all(svg, "href=\"#", "href=\"#" + prefix);
  replace_all(svg, "url(#", "url(#" + prefix);
  return svg;
}

template <class Draw>
std::string render(double width, double height, const std::string& prefix, Draw draw) {
  std::string out;
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface(
      cairo_svg_surface_create_for_stream(append, &out, width, height), &cairo_surface_destroy);
  {
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()),
                                                          &cairo_destroy);
    draw(cr.get());
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
      throw std::runtime_error(std::string("drawing a chart: ") +
                               cairo_status_to_string(cairo_status(cr.get())));
  }
  cairo_surface_finish(surface.get());
  return inline_svg(std::move(out), prefix);
}

}  // namespace

std::optional<std::string> charts_unavailable() {
  return std::nullopt;
}

std::string chart_svg(const line_chart& chart, const std::string& id_prefix) {
  return render(svg_width, chart_height(chart, svg_width), id_prefix,
                [&](cairo_t* cr) { draw_chart(cr, chart, svg_width); });
}

std::string heatmap_svg(const heatmap& map, const std::string& id_prefix) {
  return render(svg_width, heatmap_height(map, svg_width), id_prefix,
                [&](cairo_t* cr) { draw_heatmap(cr, map, svg_width); });
}

std::string diagram_svg(const diagram& d, const std::string& id_prefix) {
  return render(svg_width, diagram_height(d, svg_width), id_prefix,
                [&](cairo_t* cr) { draw_diagram(cr, d, svg_width); });
}

}  // namespace gpubench::reports
