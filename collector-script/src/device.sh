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
  local npu chip logic rest k q seen_ids=" " seen_npus logics=()
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
  # Usages several times: a stuck device shows the same counters in every sample. Beside them
  # what makes a rank slow rather than stuck (issue 37): per NPU `-t common` (rated and current
  # AI Core clock, use, temperature, power of each chip), per chip `-t temp` and `-t power`.
  # npu-smi has no `-t freq`: the clock is only in `-t common`, which takes no chip id.
  for k in 1 2 3; do
    seen_npus=" "
    while read -r npu chip logic rest; do
      [[ $npu =~ ^[0-9]+$ && $chip =~ ^[0-9]+$ && $logic =~ ^[0-9]+$ ]] || continue
      usage_step "$npu" "$chip" "$k"
      sampled_step temp "ascend/npu-smi-temp-$npu-$chip.$k.txt" -i "$npu" -c "$chip"
      sampled_step power "ascend/npu-smi-power-$npu-$chip.$k.txt" -i "$npu" -c "$chip"
      [[ $seen_npus == *" $npu "* ]] && continue
      seen_npus+="$npu "
      sampled_step common "ascend/npu-smi-common-$npu.$k.txt" -i "$npu"
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
  sampled_step usages "ascend/npu-smi-usages-$1-$2.$3.txt" -i "$1" -c "$2"
}

# `npu-smi info -t $1` into $2 with the ids $3...: one timed, sampled step like the usages.
sampled_step() {
  local path=$2 argv
  argv=(npu-smi info -t "$1" "${@:3}")
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
