# shellcheck shell=bash
# Phase device: npu-smi and hccn_tool, last among the phases: a device tool may hang, and a
# device step that times out or is abandoned makes the later ones skipped
# (device_unresponsive). None of them runs in --safe-mode.

# What hccn_tool is asked about each device (logic id N): ascend/hccn-<query>-N.txt holds
# `hccn_tool -i N -<query> -g`. link: up or down; net_health: the RoCE port's health check;
# ip: its address and mask; optical: the optical module; link_stat: link up/down history;
# stat: packet and error counters.
HCCN_QUERIES=(link net_health ip optical link_stat stat)

phase_device() {
  local npu chip logic rest k q seen_ids=" " logics=()
  step_exec ascend/npu-smi-info.txt device npu-smi info
  step_exec ascend/npu-smi-map.txt device npu-smi info -m
  [ -f "$BUNDLE/ascend/npu-smi-map.txt" ] || return 0
  # Rows "NPU ID  Chip ID  Chip Logic ID  Chip Name"; a chip without a logic id ("-") is the
  # MCU: it has no health or usages of its own.
  while read -r npu chip logic rest; do
    [[ $npu =~ ^[0-9]+$ && $chip =~ ^[0-9]+$ && $logic =~ ^[0-9]+$ ]] || continue
    step_exec "ascend/npu-smi-health-$npu-$chip.txt" device npu-smi info -t health -i "$npu" -c "$chip"
    [[ $seen_ids == *" $logic "* ]] || { seen_ids+="$logic "; logics+=("$logic"); }
  done < "$BUNDLE/ascend/npu-smi-map.txt"
  # Usages several times: a stuck device shows the same counters in every sample.
  for k in 1 2 3; do
    while read -r npu chip logic rest; do
      [[ $npu =~ ^[0-9]+$ && $chip =~ ^[0-9]+$ && $logic =~ ^[0-9]+$ ]] || continue
      usage_step "$npu" "$chip" "$k"
    done < "$BUNDLE/ascend/npu-smi-map.txt"
  done
  for logic in "${logics[@]}"; do
    for q in "${HCCN_QUERIES[@]}"; do
      step_exec "ascend/hccn-$q-$logic.txt" device hccn_tool -i "$logic" "-$q" -g
    done
  done
}

# npu-smi usages of NPU $1 chip $2, sample $3, with its sampled_utc= line first.
usage_step() {
  local path=ascend/npu-smi-usages-$1-$2.$3.txt argv
  argv=(npu-smi info -t usages -i "$1" -c "$2")
  tool_path npu-smi
  if [ -z "$TP" ]; then step_exec "$path" device "${argv[@]}"; return; fi
  json_argv "${argv[@]}"
  run_step device "$path" "$TP" "$J" bg_sampled "$TP" "${argv[@]:1}"
}

# One npu-smi usages sample: "sampled_utc=" then the tool's output.
bg_sampled() {
  epoch_now; iso_utc "$EPOCH"
  printf 'sampled_utc=%s\n' "$ISO"
  bg_exec "$@"
}
