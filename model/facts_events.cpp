// The names of the installer-history enums (model/facts_events.h), defined beside them so that
// model/ links without the readers.
#include "model/facts_events.h"

namespace triage {

std::string_view to_string(InstallAction a) {
  switch (a) {
    case InstallAction::install: return "install";
    case InstallAction::upgrade: return "upgrade";
    case InstallAction::uninstall: return "uninstall";
    case InstallAction::rollback: return "rollback";
    case InstallAction::step: return "step";
  }
  return "step";
}

std::string_view to_string(InstallResult r) {
  switch (r) {
    case InstallResult::unknown: return "unknown";
    case InstallResult::success: return "success";
    case InstallResult::failed: return "failed";
  }
  return "unknown";
}

std::string_view to_string(InstallLineKind k) {
  switch (k) {
    case InstallLineKind::start: return "start";
    case InstallLineKind::command: return "command";
    case InstallLineKind::result: return "result";
    case InstallLineKind::step: return "step";
    case InstallLineKind::operation: return "operation";
  }
  return "step";
}

}  // namespace triage
