#pragma once
// The version tables of knowledge/versions/*.tsv (each row with its source): which torch_npu
// wheels and which CANN/HDK pairs are declared compatible, which C++ ABI torch wheels use.
// Loaded here; judged by correlator/analyses/version_judge.cpp (and atb_abi.cpp for the ABI).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace triage {

struct WheelRow {
  std::string torch_npu, branch, torch, cann, status, source;  // status: declared | inferred
};
struct HdkRow {
  std::string cann, hdk, relation, source;  // relation: compatible | excluded
};
// versions/torch_abi.tsv: "-" is an open bound or any local label.
struct TorchAbiRow {
  std::string from, below, local_contains, source;
  int cxx11_abi = 0;
};
struct VersionTables {
  std::vector<WheelRow> wheels;
  std::vector<HdkRow> hdk;
  std::vector<TorchAbiRow> torch_abi;
  std::vector<std::string> errors;
};
// Parses the two TSV files (content as text); problems are appended to errors.
void parse_wheel_table(std::string_view content, std::vector<WheelRow>& out,
                       std::vector<std::string>& errors);
void parse_hdk_table(std::string_view content, std::vector<HdkRow>& out,
                     std::vector<std::string>& errors);
void parse_torch_abi_table(std::string_view content, std::vector<TorchAbiRow>& out,
                           std::vector<std::string>& errors);
// The first torch_abi row that matches a torch version ("2.5.1", "2.3.1+cpu.cxx11.abi"), or
// nullptr: no row, or not a PEP 440 version.
const TorchAbiRow* torch_abi_row(const VersionTables& t, std::string_view torch_version);
// The built-in tables (knowledge/versions/), loaded once.
const VersionTables& builtin_version_tables();
// The tables in use with --knowledge DIR ("" = built-in): DIR/versions/<name>.tsv replaces the
// built-in file of that name. Loaded once per directory.
const VersionTables& version_tables_for(const std::string& knowledge_dir);
// For `knowledge check`: problems of a versions/*.tsv file.
std::vector<std::string> check_version_table(std::string_view content, const std::string& name);

}  // namespace triage
