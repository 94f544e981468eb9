#include "model/facts_inventory.h"

namespace triage {

std::string_view to_string(ClassifiedBy c) {
  switch (c) {
    case ClassifiedBy::layout_path: return "layout path";
    case ClassifiedBy::manifest: return "manifest";
    case ClassifiedBy::content_sniff: return "content sniff";
    case ClassifiedBy::file_type: return "file type";
    case ClassifiedBy::none: return "none";
  }
  return "none";
}

}  // namespace triage
