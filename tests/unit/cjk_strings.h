#pragma once
// Short Chinese strings copied verbatim from the incident write-up (../shared/reference/
// incident-910b.zh.md, sha256 cc8e5e59...5e4; tests/fixtures/reference/SOURCES.md), for the
// display-width and report layout tests.
#include <string_view>

namespace test {

// Line 25 (a table row; the tab between the cells replaced by "，").
inline constexpr std::string_view kZhCombination = "torch_npu 2.8.0.post2＋CANN 8.5.0，宿主驱动未清理";
// Line 3, the opening paragraph: mixed ASCII words and CJK without spaces.
inline constexpr std::string_view kZhOpening =
    "910B 上的训练停在第一个 batch，最终报出流同步超时，Python 栈却落在 loss 中一次很普通的张量创建上。"
    "排查期间，基础前向和小网络反向曾经通过，替换 PyTorch、torch_npu 和 CANN 后，完整训练仍然挂起。"
    "直到同步测试把问题缩小到模型之外，再结合重启后的模块加载失败，才找到宿主驱动安装残留这条更明确的线索。";
// Line 40: names set_env.sh and CANN 9.1 inside Chinese prose.
inline constexpr std::string_view kZhMount =
    "后续镜像升级到 CANN 9.1 时，又将宿主机空的 Toolkit 目录挂载到容器同一路径，遮住了镜像中的入口。"
    "登录 shell 因找不到 set_env.sh 报错，但训练进程实际映射的库来自有效的 CANN 9.1 路径。"
    "此时应修正挂载，同时避免把 shell 警告直接当作设备超时的根因。";

}  // namespace test
