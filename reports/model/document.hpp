// The report as a format-neutral document: sections of paragraphs, tables and charts that the
// HTML, PDF and Markdown writers render, so every format shows the same content.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace gpubench::reports::model {

struct paragraph {
  std::string text;
};

// A remark set apart from the measurements: reference figures, skip reasons, caveats.
struct note {
  std::string text;
};

struct table {
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> numeric;  // per column: right-aligned
};

struct chart_point {
  double x = 0;
  double y = 0;
  double band_low = 0;  // meaningful only when the series has a band
  double band_high = 0;
};

struct chart_series {
  std::string name;
  std::vector<chart_point> points;
  bool has_band = false;  // p50-p99 for latency
};

// A horizontal line: the line rate of the path, or a published reference figure.
struct reference_line {
  double value = 0;
  std::string label;
  bool is_reference = false;  // published figure (dotted), else a line rate (dashed)
  int series = -1;            // a line rate of one series only is drawn in its colour
};

// What x is: a message size in bytes (log2 scale), or the runs of a series in order (1, 2, ...).
enum class x_scale { bytes, runs };

// A vertical mark at an x: a change point (solid), or a fingerprint event (dashed).
struct x_mark {
  double x = 0;
  std::string label;
  bool event = false;
};

struct line_chart {
  std::string title;
  std::string x_label = "message size";
  std::string y_label;
  bool log_y = false;
  x_scale x_axis = x_scale::bytes;
  std::vector<chart_series> series;
  std::vector<reference_line> lines;
  std::vector<x_mark> marks;
};

// One cell of a matrix given as a list (heatmap::cells).
struct heatmap_cell {
  std::size_t row = 0;
  std::size_t col = 0;
  double value = 0;
};

// A run of rows (and the same columns) that belong together, e.g. the nodes of one leaf switch:
// the drawing marks where each group starts; a marked group (a slow uplink) is outlined in red,
// its rows, its columns or both (on a directed matrix: slow out of the group, into it).
struct heatmap_group {
  std::size_t first = 0;
  std::size_t count = 0;
  std::string name;
  bool marked_rows = false;
  bool marked_cols = false;
};

// A matrix of values, GPU pairs against each other; empty cells are NaN.
struct heatmap {
  std::string title;
  std::string row_label;
  std::string col_label;
  std::string unit;
  bool higher_is_better = true;
  std::vector<std::string> rows;
  std::vector<std::string> cols;
  std::vector<std::vector<double>> values;
  // In raster form the cells may come as a list instead of `values` (left empty): a large sparse
  // matrix, whose unlisted cells are empty, without N^2 values in memory.
  std::vector<heatmap_cell> cells;
  std::vector<heatmap_group> groups;
  // Suspects: a row and column to mark in full (a slow node), single cells (a slow link; give
  // both (a, b) and (b, a) for a symmetric matrix); on a directed matrix a row alone (slow to
  // send) or a column alone (slow to receive).
  std::vector<std::size_t> marked_lines;
  std::vector<std::size_t> marked_rows;
  std::vector<std::size_t> marked_cols;
  std::vector<std::pair<std::size_t, std::size_t>> marked_cells;
  std::string marks_label;  // what the marks mean, under the matrix
  // Cells as one raster image without values or names (a large matrix: N^2 vector rectangles
  // would weigh down the page); rows and columns are then labelled by index.
  bool raster = false;
};

// How close a measured path came to its line rate: the colour of its edge in the diagram.
// good >= 80 %, fair 50-80 %, poor < 50 %; unknown when the path has no line rate.
enum class line_band { unknown, good, fair, poor };

// A box of the machine diagram: a NUMA node with its CPUs, host memory, a GPU, a NIC, an RDMA
// device, the network. Boxes sit on a grid: `column` left to right (memory, CPU, devices,
// network), `row` top to bottom; the drawing scales the grid to the width it has.
struct diagram_node {
  std::string id;
  std::string label;   // "GPU 0", "NUMA 1", "ens1f0np0"
  std::string detail;  // second line: model, PCIe link, speed
  std::string kind;    // memory | cpu | gpu | nic | rdma | network | fabric
  int column = 0;
  int row = 0;
  int row_span = 1;  // a NUMA node spans the rows of the devices attached to it
};

// A link between two boxes with what was measured across it.
struct diagram_edge {
  std::string from;
  std::string to;
  std::vector<std::string> lines;  // "H2D 54.8 GB/s, 87 % of line"; "PCIe gen5 x16 of gen5 x16"
  line_band band = line_band::unknown;
  bool measured = false;  // false: a link the topology shows that nothing measured (drawn dotted)
};

struct diagram {
  std::string title;
  std::vector<diagram_node> nodes;
  std::vector<diagram_edge> edges;
  int columns = 1;
  int rows = 1;
};

using block = std::variant<paragraph, note, table, line_chart, heatmap, diagram>;

struct section {
  std::string title;
  int level = 1;  // 1: part of the report, 2: one view inside it
  std::vector<block> blocks;
  // A part of the report that starts a new page in paged formats: page one, each appendix.
  bool new_page = false;
};

struct document {
  std::string title;
  std::vector<std::string> subtitle;  // one line per input file
  std::vector<section> sections;
};

}  // namespace gpubench::reports::model
