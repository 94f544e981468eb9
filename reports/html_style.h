#pragma once
// The HTML report's stylesheet, inlined into the page (the Content-Security-Policy allows
// inline style only; no fonts, scripts or images are fetched). System fonts, print-friendly.
#include <string_view>

namespace triage::html {

inline constexpr std::string_view kStyle = R"css(
:root{--fg:#1d232a;--muted:#5b6570;--line:#d6dbe0;--bg:#fff;--card:#f6f8fa;
--info:#6b7785;--warning:#b7791f;--error:#c53030;--critical:#822727;--ok:#2f855a;--link:#1d5fa8}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1240px;padding:16px 20px 40px;color:var(--fg);background:var(--bg);
font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
h1{font-size:22px;margin:4px 0 2px}h2{font-size:18px;margin:26px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:0 0 4px}
a{color:var(--link)}
code,pre,.mono{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
pre{background:var(--card);border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:4px 0 8px;
white-space:pre-wrap;overflow-wrap:anywhere}
.sub{color:var(--muted);margin:0 0 12px}
.card{border:1px solid var(--line);border-radius:6px;padding:12px 14px;margin:10px 0;background:var(--card)}
.verdict{border-left:6px solid var(--link);background:#f2f7fd}
.verdict .summary{font-size:15px;font-weight:600;margin:0 0 8px}
ol.hyps{margin:6px 0;padding-left:22px}ol.hyps>li{margin:0 0 10px}
.hyp-title{font-weight:600}.score{color:var(--muted)}
ul.links{margin:2px 0 4px;padding-left:18px}
.badge{display:inline-block;padding:0 7px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;
background:var(--info);vertical-align:1px}
.sev-warning .badge,.badge.sev-warning{background:var(--warning)}
.sev-error .badge,.badge.sev-error{background:var(--error)}
.sev-critical .badge,.badge.sev-critical{background:var(--critical)}
.conf{display:inline-block;padding:0 6px;border:1px solid var(--line);border-radius:10px;font-size:12px;color:var(--muted);background:#fff}
.finding{border:1px solid var(--line);border-left:5px solid var(--info);border-radius:6px;padding:10px 12px;margin:10px 0}
.finding.sev-warning{border-left-color:var(--warning)}.finding.sev-error{border-left-color:var(--error)}
.finding.sev-critical{border-left-color:var(--critical)}
.finding .fid{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px;color:var(--muted)}
.finding:target,.hyp:target{outline:2px solid var(--link)}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:4px 0}
dl.kv dt{color:var(--muted)}dl.kv dd{margin:0}
p.field{margin:3px 0}p.field b{color:var(--muted);font-weight:600}
details{margin:6px 0}summary{cursor:pointer;color:var(--link)}
.ev-ref{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12.5px;color:var(--muted);margin-top:6px}
table{border-collapse:collapse;width:100%;font-size:12.5px}
th,td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
th{background:var(--card)}
td.msg{overflow-wrap:anywhere}
.timeline svg{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:4px;background:#fff;margin:6px 0}
.legend span{display:inline-block;margin-right:14px;color:var(--muted)}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.muted{color:var(--muted)}
footer{margin-top:30px;color:var(--muted);font-size:12px}
)css";

}  // namespace triage::html

namespace triage::html {

// Classes of the SVG timeline (inline SVG takes the page's stylesheet).
inline constexpr std::string_view kSvgStyle = R"css(
.tl-lane{fill:#f6f8fa}.tl-lane.alt{fill:#fff}
.tl-label{font:12px ui-monospace,"DejaVu Sans Mono",monospace;fill:#1d232a}
.tl-tick{stroke:#d6dbe0;stroke-width:1}
.tl-axis{font:11px system-ui,sans-serif;fill:#5b6570}.tl-axis.local{fill:#8a939c}
.tl-ev{stroke:#fff;stroke-width:1}.tl-ev.warning{stroke:#d69e2e;stroke-width:2}
.tl-ev.error{stroke:#c53030;stroke-width:2.5}.tl-ev.critical{stroke:#822727;stroke-width:3}
.src-0{fill:#1f77b4}.src-1{fill:#ff7f0e}.src-2{fill:#17becf}.src-3{fill:#2ca02c}.src-4{fill:#9467bd}
.src-5{fill:#8c564b}.src-6{fill:#e377c2}.src-7{fill:#2b6cb0}.src-8{fill:#bcbd22}.src-9{fill:#7f7f7f}
.src-10{fill:#5b6570}.src-11{fill:#aab2bd}
.tl-span{fill-opacity:.55}
.tl-stall{fill:#c53030;fill-opacity:.35;stroke:#822727;stroke-width:1.5}
.tl-stall-label{font:bold 11px system-ui,sans-serif;fill:#822727}
.tl-edge-label{font:10px system-ui,sans-serif;fill:#4a5568}
.tl-install{fill:#2b6cb0;stroke:#fff;stroke-width:1}
.tl-boot{stroke:#2f855a;stroke-width:1.5;stroke-dasharray:4 3}
.tl-reboot{stroke:#2f855a;stroke-width:3}
.tl-boot-label{font:bold 11px system-ui,sans-serif;fill:#2f855a}
.tl-collect{stroke:#5b6570;stroke-width:1.5;stroke-dasharray:2 3}
.tl-collect-label{font:11px system-ui,sans-serif;fill:#5b6570}
.legend i.src-0{background:#1f77b4}.legend i.src-1{background:#ff7f0e}.legend i.src-2{background:#17becf}
.legend i.src-3{background:#2ca02c}.legend i.src-4{background:#9467bd}.legend i.src-5{background:#8c564b}
.legend i.src-6{background:#e377c2}.legend i.src-7{background:#2b6cb0}.legend i.src-8{background:#bcbd22}
.legend i.src-9{background:#7f7f7f}.legend i.src-10{background:#5b6570}.legend i.src-11{background:#aab2bd}
.legend i.ring{background:#fff;border-radius:6px}.legend i.warning{border:2px solid #d69e2e}
.legend i.error{border:2.5px solid #c53030}.legend i.critical{border:3px solid #822727}.legend i.stall{background:#eeb1b1;border:1.5px solid #822727}
.legend i.install{background:#2b6cb0;transform:rotate(45deg) scale(.8)}
.legend i.boot{background:none;border-left:3px solid #2f855a;border-radius:0;width:6px}
.legend i.collect{background:none;border-left:2px dashed #5b6570;border-radius:0;width:6px}
)css";

}  // namespace triage::html
