// Charts as SVG through cairo's SVG surface, for embedding in the HTML report.
#include <cairo-svg.h>

#include <memory>
#include <stdexcept>

#include "reports/render/chart_drawing.hpp"
#include "reports/render/charts.hpp"
#include "reports/render/svg_ids.hpp"

namespace gpubench::reports::render {

using namespace model;

namespace {

constexpr double svg_width = 760;

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
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
  return prefix_svg_ids(out, prefix);
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

}  // namespace gpubench::reports::render
