// Expected bands per system (bands.json, built into the program): what others published for
// the same hardware, so a report can answer "is my number normal?". Each band names its source
// and date; a system is recognised from the GPU and NIC names, PCIe generation and link layer a
// run carries. References, never measurements.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"

namespace gpubench::reports::model {

inline constexpr const char* bands_schema_id = "gpubench.bands/1";

// The metrics a band can be published for (docs/report.md, "Expected bands"): host copies,
// GPU pairs, 8-GPU allreduce by algorithm, per-NIC NCCL bus bandwidth, ib_write_bw and RC
// latency. A band of another metric is refused when the table is read.
const std::vector<std::string>& band_metrics();

struct band_system {
  std::string id;
  std::string name;                  // "H100 SXM (NVLink 4, PCIe 5.0)"
  std::vector<std::string> gpu;      // a GPU name holds one of these as a word ("H100")
  std::vector<std::string> not_gpu;  // ... and none of these ("PCIe", "NVL")
  std::optional<int> pcie_gen;       // a GPU's PCIe link is (capable of) this generation
  std::optional<double> nic_gbps;    // the path's port runs at this speed
  std::string link_layer;            // "InfiniBand" | "Ethernet" (RoCE)
};

struct band {
  std::string system;  // a band_system id
  std::string metric;
  double low = 0;
  double high = 0;
  std::optional<double> floor;  // what a provider fails a node below
  std::string unit;             // "GB/s", "Gb/s" or "us"
  std::string source;
  std::string date;
};

// What a run tells of the hardware a figure crossed: its system block, and for a network path
// the port speed and link layer the case itself recorded.
struct band_context {
  const nlohmann::json* system = nullptr;
  std::optional<double> port_gbps;
  std::string link_layer;
};

class band_table {
 public:
  // Validates a gpubench.bands/1 document; throws core::input_error prefixed by `origin`.
  band_table(const nlohmann::json& doc, const std::string& origin);
  // The bands shipped with gpubench.
  static band_table builtin();

  const std::vector<band_system>& systems() const { return m_systems; }
  const std::vector<band>& bands() const { return m_bands; }
  const band_system& system_of(const band& b) const;

  // The band for `metric` of the first system (in table order) the context matches; nothing
  // where none fits.
  const band* find(const std::string& metric, const band_context& context) const;

 private:
  std::vector<band_system> m_systems;
  std::vector<band> m_bands;
};

bool system_matches(const band_system& s, const band_context& context);

// "51-55 GB/s" (or "25.9 GB/s"), with ", floor 48" when the band has one.
std::string band_text(const band& b);

// A value in `unit` ("GB/s", "us") in the band's unit (Gb/s bands take GB/s x 8); nothing when
// the units do not convert.
std::optional<double> in_band_unit(double value, const std::string& unit, const band& b);

}  // namespace gpubench::reports::model
