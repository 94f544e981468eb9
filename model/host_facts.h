#pragma once
// Everything read from one host's evidence: the input of the correlator.
#include <string>
#include <string_view>
#include <vector>

#include "model/facts_device.h"
#include "model/facts_events.h"
#include "model/facts_inventory.h"
#include "model/facts_libraries.h"
#include "model/facts_load.h"
#include "model/facts_logs.h"
#include "model/facts_manifest.h"
#include "model/facts_modules.h"
#include "model/facts_network.h"
#include "model/facts_process.h"
#include "model/facts_python.h"
#include "model/facts_system.h"
#include "model/finding.h"

namespace triage {

// Facts of one input path (a bundle, an archive, a loose directory or a single file).
struct BundleFacts {
  std::string input;  // the path the user gave
  std::string host;   // manifest host, else uname node name, else "" (unknown)
  InventoryFacts inventory;
  ManifestFacts manifest;
  SystemFacts system;
  ProcessFacts processes;
  LogFacts logs;
  ModuleFacts modules;
  LibraryFacts libraries;
  DeviceFacts devices;
  LoadFacts load;       // npu-smi readings, CPU load, scheduling counters (slow, not stuck)
  PythonFacts python;
  NetworkFacts network;  // hccn_tool answers, rank tables, py-spy stacks
  EventFacts events;  // installer history (ascend/seclog/), for the timeline
  std::vector<Finding> input_findings;  // input-damaged/..., raised while reading
};

// Several inputs given together are one evidence set; bundles of one host form a group
// (e.g. the same host before and after a reboot) that analyses may read together.
struct HostGroup {
  std::string host;
  std::vector<const BundleFacts*> bundles;  // in input order
};

struct EvidenceSet {
  std::vector<BundleFacts> bundles;  // one per input path, in the order given
  // Groups by host name; bundles whose host is unknown each form their own group.
  std::vector<HostGroup> groups() const;
};

}  // namespace triage
