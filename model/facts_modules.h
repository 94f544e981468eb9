#pragma once
// Kernel module provenance and driver binding facts (module provenance issue).
namespace triage {

struct ModuleFacts {};

}  // namespace triage
