# gpu-validate.sh's pairing of gpubench's GPU cases with nvbandwidth's matrices. Input: a
# gpubench result file; $nvb: nvbandwidth -j output (null when absent). Output: one line per
# comparable case, "what<TAB>gpubench GB/s<TAB>reference GB/s" (reference null when missing).
#
# What nvbandwidth's matrices hold (its testcases_ce.cpp / testcases_sm.cpp, v0.5 to v0.8):
# - host<->device: one row; column = GPU. Its host buffer sits on the GPU's nearest NUMA node,
#   so only gpubench's cases on that node (context.numa_local) are comparable.
# - device<->device write: row = the writing (source) GPU, column = the destination.
# - device<->device read: row = the reading GPU, which is the copy's destination; column = the
#   source. gpubench's src -> dst read is cell [dst][src].
# - bidirectional device<->device, v0.6 on: three tables stacked in one matrix (3n rows for n
#   GPUs): 1st [r][c] the data c -> r, 2nd [r][c] the data r -> c, 3rd their sum; gpubench's
#   forward (src -> dst) direction is the 2nd table's [src][dst]. Up to v0.5 one table of the
#   measured direction: write [src][dst], read [dst][src].
# Numbers are strings in nvbandwidth's JSON ("N/A" where not measured).
def tc($name): ($nvb // {} | .nvbandwidth.testcases // [] | map(select(.name == $name)) | .[0]);
def num: if . == null then null else (tonumber? // null) end;
def cell($name; $r; $c): (tc($name) | .bandwidth_matrix[$r][$c] // null | num);
def p2p_cell($name; $read; $src; $dst):
  if $read then cell($name; $dst; $src) else cell($name; $src; $dst) end;
def forward_cell($name; $read; $src; $dst):
  (tc($name) | .bandwidth_matrix // []) as $m
  | ($m[0] // [] | length) as $n
  | if $n > 0 and ($m | length) == 3 * $n then ($m[$n + $src][$dst] // null | num)
    else p2p_cell($name; $read; $src; $dst) end;

.results[] | select(.status == "ok") | . as $c | .params as $p | .points[-1] as $pt
| ($c.context.numa_local == true) as $local
| (if $c.benchmark == "gpu.h2d" and ($p.gpu | type) == "number" and $p.memory == "pinned"
        and $local then
     ["h2d gpu\($p.gpu) \($p.engine) numa\($p.numa)", $pt.stats.median,
      cell("host_to_device_memcpy_\($p.engine)"; 0; $p.gpu)]
   elif $c.benchmark == "gpu.d2h" and ($p.gpu | type) == "number" and $p.memory == "pinned"
        and $local then
     ["d2h gpu\($p.gpu) \($p.engine) numa\($p.numa)", $pt.stats.median,
      cell("device_to_host_memcpy_\($p.engine)"; 0; $p.gpu)]
   elif $c.benchmark == "gpu.bidir" and ($p.gpu | type) == "number" and $pt.extra.h2d_gbps
        and $local then
     ["bidir h2d gpu\($p.gpu) numa\($p.numa)", $pt.extra.h2d_gbps,
      cell("host_to_device_bidirectional_memcpy_ce"; 0; $p.gpu)],
     ["bidir d2h gpu\($p.gpu) numa\($p.numa)", $pt.extra.d2h_gbps,
      cell("device_to_host_bidirectional_memcpy_ce"; 0; $p.gpu)]
   elif $c.benchmark == "gpu.bidir" and ($p.gpu | type) == "number" and $p.engine == "sm"
        and $local then
     # One split-warp kernel moves both ways; nvbandwidth prints half its total per direction.
     ["bidir sm both ways gpu\($p.gpu) numa\($p.numa)", $pt.stats.median,
      (cell("host_to_device_bidirectional_memcpy_sm"; 0; $p.gpu) | if . == null then null else 2 * . end)]
   elif $c.benchmark == "gpu.p2p.bandwidth" and $p.access == "p2p" and $p.direction == "uni" then
     ["p2p \($p.src)->\($p.dst) \($p.op) \($p.engine)", $pt.stats.median,
      p2p_cell("device_to_device_memcpy_\($p.op)_\($p.engine)"; $p.op == "read"; $p.src; $p.dst)]
   elif $c.benchmark == "gpu.p2p.bandwidth" and $p.access == "p2p" and $pt.extra.forward_gbps then
     ["p2p bidir \($p.src)->\($p.dst) \($p.op) \($p.engine)", $pt.extra.forward_gbps,
      forward_cell("device_to_device_bidirectional_memcpy_\($p.op)_\($p.engine)";
                   $p.op == "read"; $p.src; $p.dst)]
   else empty end)
| @tsv
