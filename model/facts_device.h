#pragma once
// npu-smi, probe and device-error facts (device errors issue).
namespace triage {

struct DeviceFacts {};

}  // namespace triage
