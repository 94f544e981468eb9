#pragma once
// control: an analysis with no test and no row in table.cpp
void analyze_orphan(const AnalysisContext& ctx, std::vector<Finding>& out);
