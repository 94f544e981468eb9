#pragma once
// Library, environment, mount and version facts (library provenance issue).
namespace triage {

struct LibraryFacts {};

}  // namespace triage
