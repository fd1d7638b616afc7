// Virtualization: the hypervisor's own cpuid signature first (it names the hypervisor that
// actually runs the guest), then the DMI strings the firmware presents, as systemd-detect-virt.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "core/system/sysfs.hpp"
#include "core/system/system_probe.hpp"

namespace gpubench::core {

namespace {

struct name_map {
  const char* needle;
  const char* name;
};

// Signatures of cpuid leaf 0x40000000 (EBX, ECX, EDX as 12 characters).
constexpr std::array<name_map, 12> cpuid_names = {{{"KVMKVMKVM", "kvm"},
                                                   {"Linux KVM Hv", "kvm"},
                                                   {"VMwareVMware", "vmware"},
                                                   {"Microsoft Hv", "hyper-v"},
                                                   {"XenVMMXenVMM", "xen"},
                                                   {"VBoxVBoxVBox", "virtualbox"},
                                                   {"TCGTCGTCGTCG", "qemu"},
                                                   {"bhyve bhyve", "bhyve"},
                                                   {"ACRNACRNACRN", "acrn"},
                                                   {"QNXQVMBSQG", "qnx"},
                                                   {"Apple VZ", "apple"},
                                                   {" lrpepyh  vr", "parallels"}}};

// Prefixes of DMI sys_vendor / product_name / board_vendor / bios_vendor (prefixes, so a
// "Xeon" board never reads as "Xen"), most specific first.
constexpr std::array<name_map, 14> dmi_names = {{{"VMware", "vmware"},
                                                 {"VMW", "vmware"},
                                                 {"KVM", "kvm"},
                                                 {"OpenStack", "kvm"},
                                                 {"Amazon EC2", "amazon"},
                                                 {"Google", "google"},
                                                 {"QEMU", "qemu"},
                                                 {"innotek GmbH", "virtualbox"},
                                                 {"VirtualBox", "virtualbox"},
                                                 {"Xen", "xen"},
                                                 {"Parallels", "parallels"},
                                                 {"BHYVE", "bhyve"},
                                                 {"Bochs", "bochs"},
                                                 {"Apple Virtualization", "apple"}}};

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
    s.pop_back();
  return s;
}

// This CPU's hypervisor signature, "" when the hypervisor-present bit is clear.
std::optional<std::string> read_cpuid_signature() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return std::nullopt;
  if ((ecx & (1u << 31)) == 0) return std::string();
  __cpuid(0x40000000, eax, ebx, ecx, edx);
  char sig[13] = {};
  std::memcpy(sig + 0, &ebx, 4);
  std::memcpy(sig + 4, &ecx, 4);
  std::memcpy(sig + 8, &edx, 4);
  return rtrim(std::string(sig, 12));
#else
  return std::nullopt;  // no cpuid: DMI alone decides
#endif
}

const char* lookup(const std::string& signature, const auto& table) {
  for (const auto& m : table)
    if (signature.find(m.needle) != std::string::npos) return m.name;
  return nullptr;
}

const char* lookup_prefix(const std::vector<std::string>& values, const auto& table) {
  for (const auto& m : table)
    for (const auto& v : values)
      if (v.rfind(m.needle, 0) == 0) return m.name;
  return nullptr;
}

}  // namespace

nlohmann::json probe_virtualization(const probe_roots& roots) {
  const auto dmi = roots.sys / "class" / "dmi" / "id";
  nlohmann::json platform = nlohmann::json::object();
  std::vector<std::string> dmi_values;
  for (const char* key : {"sys_vendor", "product_name", "board_vendor", "bios_vendor"})
    if (auto v = read_line(dmi / key); v && !v->empty()) {
      if (std::string_view(key) == "sys_vendor") platform["vendor"] = *v;
      if (std::string_view(key) == "product_name") platform["product"] = *v;
      dmi_values.push_back(*v);
    }
  const auto signature =
      roots.hypervisor_signature ? roots.hypervisor_signature : read_cpuid_signature();
  if (signature && !signature->empty()) platform["hypervisor_signature"] = *signature;

  const char* from_cpuid =
      signature && !signature->empty() ? lookup(*signature, cpuid_names) : nullptr;
  const char* from_dmi = lookup_prefix(dmi_values, dmi_names);
  // Xen PV guests have neither a cpuid leaf nor DMI, only /sys/hypervisor.
  const auto xen = read_line(roots.sys / "hypervisor" / "type");

  std::string name;
  // Clouds run KVM underneath; their DMI name says more to a reader than "kvm".
  if (from_cpuid && from_dmi &&
      (std::string_view(from_dmi) == "amazon" || std::string_view(from_dmi) == "google"))
    name = from_dmi;
  else if (from_cpuid)
    name = from_cpuid;
  else if (signature && !signature->empty())
    name = "unknown hypervisor (" + *signature + ")";
  else if (from_dmi)
    name = from_dmi;
  else if (xen && *xen == "xen")
    name = "xen";
  else if (signature || !dmi_values.empty())
    name = "none";  // a CPU or firmware that would name a hypervisor did not
  else
    name = "unknown";
  return {{"virtualization", name}, {"platform", platform}};
}

}  // namespace gpubench::core
