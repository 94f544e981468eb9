#pragma once
// Where the unit tests find their data, the samples, the knowledge and the analyzer binary.
// The paths are defined in a file CMake generates (test_paths.cpp in the build directory),
// not as -D flags: a path in a flag differs per clone, and ccache (whose CCACHE_BASEDIR
// rewrites paths in arguments, not in macro values) missed every test file of a fresh clone,
// about 15 minutes of the sanitized build in CI. This header is included in every test file
// by the build (-include), so the macros read as before.
namespace triage::test_paths {
extern const char* const kTestDataDir;
extern const char* const kSamplesDir;
extern const char* const kKnowledgeDir;
extern const char* const kAscendTriageBin;
}  // namespace triage::test_paths

#define TEST_DATA_DIR (::triage::test_paths::kTestDataDir)
#define SAMPLES_DIR (::triage::test_paths::kSamplesDir)
#define KNOWLEDGE_DIR (::triage::test_paths::kKnowledgeDir)
#define ASCEND_TRIAGE_BIN (::triage::test_paths::kAscendTriageBin)
