// The HBM/SRAM diagram as data; see scene.h. Layout constants are in em.
#include "view/scene.h"

#include <algorithm>
#include <map>

#include "view/format.h"
#include "view/lesson_text.h"

namespace bw::view {

const char* ToString(TileState s) {
  switch (s) {
    case TileState::kNone: return "none";
    case TileState::kPending: return "pending";
    case TileState::kInSram: return "in_sram";
    case TileState::kProcessed: return "processed";
    case TileState::kMasked: return "masked";
    case TileState::kWritten: return "written";
    case TileState::kNotWritten: return "not_written";
    case TileState::kNotStored: return "not_stored";
  }
  return "?";
}

Palette ClassroomPalette() {
  Palette p;
  p.background = {250, 250, 247};
  p.panel_hbm = {236, 239, 244};
  p.panel_sram = {255, 244, 222};
  p.border = {38, 50, 56};
  p.text = {20, 24, 28};
  p.text_muted = {84, 96, 104};
  p.pending = {189, 189, 189};
  p.in_sram = {255, 193, 7};
  p.processed = {67, 160, 71};
  p.masked = {224, 224, 224};
  p.written = {229, 57, 53};
  p.not_written = {245, 245, 245};
  p.read_arrow = {30, 101, 216};
  p.write_arrow = {211, 47, 47};
  p.merge_arrow = {55, 71, 79};
  p.line_em = 0.12f;
  return p;
}

Palette ProjectorPalette() {
  Palette p = ClassroomPalette();
  p.background = {255, 255, 255};
  p.border = {0, 0, 0};
  p.text = {0, 0, 0};
  p.line_em = 0.2f;
  return p;
}

namespace {

const std::map<std::string, std::pair<std::string, std::string>>& UiTable() {
  // key → {zh, en}
  static const std::map<std::string, std::pair<std::string, std::string>> table = {
      {"hbm_title", {"HBM 显存（片外：容量大、搬运慢）", "HBM (off-chip: large, slow to move)"}},
      {"sram_title", {"SRAM 片上工作区（小、快）", "SRAM (on-chip: small, fast)"}},
      {"done", {"已处理", "done"}},
      {"pending", {"待处理", "pending"}},
      {"in_sram", {"在片上", "in SRAM"}},
      {"masked", {"全被遮蔽·跳过", "masked, skipped"}},
      {"written", {"已写回一次", "written once"}},
      {"not_written", {"尚未写回", "not written yet"}},
      {"not_stored", {"分块顺序不保存", "not stored when tiled"}},
      {"sp_ghost", {"S、P 整表", "full S, P"}},
      {"q_fixed", {"Q（固定）", "Q (fixed)"}},
      {"q_read_once", {"读入一次", "read once"}},
      {"kv_slot", {"当前 K/V 块", "current K/V block"}},
      {"slot_empty", {"空", "empty"}},
      {"acc_title", {"累计量 m, l, u", "accumulator m, l, u"}},
      {"read", {"读入", "read"}},
      {"write", {"写回 O = u/l", "write O = u/l"}},
      {"merge", {"合并（旧值 ×e^(m−m')）", "merge (old × e^(m−m'))"}},
      {"legend_read", {"蓝箭头：读入片上", "blue arrow: read into SRAM"}},
      {"legend_write", {"红箭头：写回显存", "red arrow: write to HBM"}},
      {"block", {"块", "block"}},
      // App panels
      {"panel_accumulator", {"累计量", "Accumulator"}},
      {"panel_step", {"讲解", "Lesson"}},
      {"further", {"进一步解释", "Further explanation"}},
      {"teacher_notes", {"教师备课（不朗读）", "Teacher notes (not read aloud)"}},
      {"source", {"来源与条件", "Source and conditions"}},
      {"running_state", {"当前累计", "Running state"}},
      {"output_so_far", {"目前输出 u/l", "output so far u/l"}},
      {"true_output", {"正确输出（直接计算 Σwv/Σw）", "true output (direct Σwv/Σw)"}},
      {"blocked_output", {"分块合并输出", "blocked output"}},
      {"wrong_average", {"错误：块输出直接平均", "wrong: mean of block outputs"}},
      {"block_contrib", {"各块自身 (m_b, l_b, u_b)", "each block alone (m_b, l_b, u_b)"}},
      {"rescale", {"重缩放因子 e^(m−m')", "rescale factor e^(m−m')"}},
      {"event", {"事件", "event"}},
      {"step", {"步骤", "step"}},
      {"keys_hint", {"←/→ 逐个事件，Shift+←/→ 逐块，空格播放，? 查看全部快捷键", "←/→ one event, Shift+←/→ one block, Space plays, ? lists every shortcut"}},
      {"no_output_yet", {"尚无（还没有允许的位置）", "none yet (no allowed position merged)"}},
      {"all_masked", {"整行都被遮蔽：输出定义为 0 并标记", "every position masked: output defined as 0 and flagged"}},
      {"error", {"错误", "Error"}},
      {"lang_switch", {"English", "中文"}},
      {"mode", {"模式", "mode"}},
      {"projector", {"投影模式", "Projector"}},
      {"shortcuts", {"快捷键", "Shortcuts"}},
      {"key_arrows", {"← / →\t上一个 / 下一个事件", "← / →\tprevious / next event"}},
      {"key_shift_arrows", {"Shift + ← / →\t上一块 / 下一块", "Shift + ← / →\tprevious / next block"}},
      {"key_pages", {"PageUp / PageDown\t上一步 / 下一步（翻页笔）", "PageUp / PageDown\tprevious / next lesson step (clickers)"}},
      {"key_home_end", {"Home / End\t第一步 / 最后一步", "Home / End\tfirst / last step"}},
      {"key_space", {"空格\t播放 / 暂停", "Space\tplay / pause"}},
      {"key_speed", {"[ / ]\t播放减速 / 加速", "[ / ]\tslower / faster playback"}},
      {"key_help", {"?\t显示 / 隐藏本表", "?\tshow / hide this list"}},
      {"key_f5", {"F5\t演讲者模式：备课笔记放到第二个窗口", "F5\tpresenter mode: notes in a second window"}},
      {"key_f11", {"F11 / Shift+F11\t全屏 / 换到下一个显示器", "F11 / Shift+F11\tfullscreen / on the next monitor"}},
      {"key_p", {"P\t投影配色", "P\tprojector palette"}},
      {"key_g", {"G\tGPU 面板：真实显卡上的分块流量", "G\tGPU panel: tile traffic on a real GPU"}},
      {"gpu_title", {"GPU：分块流量", "GPU: tile traffic"}},
      {"gpu_live", {"实时运行在", "live on"}},
      {"gpu_none", {"这里没有 NVIDIA 显卡——下面是在 H200 上录制的一次运行", "No NVIDIA GPU here — showing a run recorded on an H200"}},
      {"gpu_run", {"运行", "Run"}},
      {"gpu_replay", {"回放 H200 录制", "Replay the H200 recording"}},
      {"gpu_slowdown", {"回放放慢倍数", "replay slow-down"}},
      {"gpu_pace", {"每块至少", "per tile at least"}},
      {"causal", {"因果", "causal"}},
      {"gpu_hint", {"按“运行”在这块显卡上实时运行，或回放在 H200 上录制的一次运行。", "Press Run for a live kernel on this GPU, or replay a run recorded on an H200."}},
      {"gpu_device", {"设备", "device"}},
      {"gpu_loaded", {"已读入共享内存", "loaded to shared memory"}},
      {"gpu_written", {"已写回", "written"}},
      {"gpu_legend", {"每格是一个 (Q 块, K/V 块) 步骤；颜色表示开始时间（浅 = 早，深 = 晚）；灰色条纹 = 整块被遮蔽、跳过；淡蓝 = 尚未完成。", "Each cell is one (Q tile, K/V tile) step, coloured by when it started (light = early, dark = late); grey stripes = fully masked, skipped; pale blue = not done yet."}},
      {"gpu_running", {"运行中……结束后显示时间、TFLOP/s、GB/s 和计数对比。", "Running… time, TFLOP/s, GB/s and the counter check appear when it ends."}},
      {"gpu_time", {"核函数时间", "kernel time"}},
      {"gpu_hbm", {"HBM 流量（模型）", "HBM traffic (model)"}},
      {"gpu_vs_engine", {"GPU 计数与 CPU 引擎预测（元素）", "GPU counters vs the CPU engine's prediction (elements)"}},
      {"gpu_engine", {"CPU 引擎", "CPU engine"}},
      {"key_l", {"L\t切换中文 / English", "L\tswitch 中文 / English"}},
      {"key_font", {"Ctrl + / Ctrl − / Ctrl 0\t放大 / 缩小 / 复原字号", "Ctrl + / Ctrl − / Ctrl 0\tlarger / smaller / default text"}},
      {"key_open", {"Ctrl+O\t打开课程或场景", "Ctrl+O\topen a lesson or scenario"}},
      {"key_export", {"Ctrl+E / Ctrl+Shift+E\t导出 PNG（2 倍）/ 计数 CSV 与轨迹 JSON", "Ctrl+E / Ctrl+Shift+E\texport PNG (2×) / counters CSV and trace JSON"}},
      {"no_lesson_notes", {"当前打开的是单独的场景，没有备课笔记。", "A scenario is open on its own: there are no notes."}},
      {"next_step", {"下一步", "Next step"}},
      {"heatmap", {"热图", "Heatmap"}},
      {"editor", {"编辑这个场景（即时重算）", "Edit this scenario (live recompute)"}},
      {"stable_mode", {"稳定递推（减去最大值）", "stable (max-shifted)"}},
      {"save_as", {"另存为", "Save As"}},
      {"saved", {"已保存", "saved"}},
      {"heatmap_legend", {"颜色：log10 p，跨 6 个数量级（黄 = 1，紫 = 1e-6）；灰 = 被遮蔽；红框 = 当前块。", "colour: log10 p over 6 decades (yellow = 1, purple = 1e-6); grey = masked; red box = current tile."}},
      {"heatmap_too_big", {"矩阵超过显卡纹理尺寸，不画热图。", "The matrix is larger than a GPU texture: no heatmap."}},
      {"steps", {"全部步骤", "All steps"}},
      {"open_title", {"打开课程或场景", "Open a lesson or scenario"}},
      {"open_path", {"文件路径：", "File path:"}},
      {"open", {"打开", "Open"}},
      {"recent", {"最近打开", "Recent"}},
      {"shipped", {"随附的课程与场景", "Shipped lessons and scenarios"}},
      {"key_drop", {"拖入文件\t打开课程或场景", "drop a file\topen a lesson or scenario"}},
      {"note", {"注意", "note"}},
      {"tile_grid", {"分块 (i, j)", "tiles (i, j)"}},
      {"grid_note", {"每块 S(i,j) 只在片上，用完即丢", "each tile S(i,j) lives on chip only"}},
      {"short_done", {"已算", "done"}},
      {"short_pending", {"待算", "to do"}},
      {"short_skip", {"跳过", "skip"}},
      {"short_now", {"当前", "now"}},
      {"acc_rows", {"累计 m, l, u：", "m, l, u of"}},
      {"no_acc_reference", {"直接做法：整张 S、P 经过显存", "reference: whole S and P go through HBM"}},
      {"more_rows", {"行未显示", "more rows"}},
      {"elements", {"个元素", "elements"}},
      {"panel_run", {"本次运行", "This run"}},
      {"shape", {"形状", "shape"}},
      {"order", {"执行顺序", "order"}},
      {"mask", {"遮蔽", "mask"}},
      {"derivation", {"由 SRAM 大小推导", "from the SRAM size"}},
      {"check_vs_reference", {"与直接计算比对", "vs the reference"}},
      {"match", {"一致", "match"}},
      {"flagged_rows", {"整行被遮蔽", "fully masked rows"}},
      {"flagged_note", {"（输出定义为 0 并标记）", "(output defined as 0, flagged)"}},
      {"panel_counters", {"HBM 读写计数（元素，累计到此刻）", "HBM traffic (elements, so far)"}},
      {"tensor", {"张量", "tensor"}},
      {"reads_now", {"读", "reads"}},
      {"writes_now", {"写", "writes"}},
      {"formula_total", {"全程公式", "formula (whole run)"}},
      {"panel_compare", {"对比（全程）", "Comparison (whole run)"}},
      {"hbm_now", {"此刻 HBM 累计", "HBM so far"}},
      {"scratch", {"中间表", "scratch"}},
      {"ratio", {"直接做法 / FlashAttention-2", "reference / FlashAttention-2"}},
      {"sram_peak", {"SRAM 峰值", "SRAM peak"}},
      {"sram_now", {"此刻 SRAM 占用", "SRAM in use now"}},
      {"peak", {"峰值", "peak"}},
      {"tiles", {"分块", "tiles"}},
      {"computed", {"已计算", "computed"}},
      {"so_far", {"（到此刻）", "(so far)"}},
      {"before", {"合并前", "before"}},
      {"predict", {"先猜一猜：", "Predict first:"}},
      {"wrong_merges", {"错误的合并（与正确结果对比）", "Wrong merges (beside the right one)"}},
      {"merge_variant", {"合并方式", "merge"}},
      {"max_error", {"最大误差", "max error"}},
      {"skipped", {"跳过", "skipped"}},
      {"kept_scenario", {"已保留当前场景。", "The current scenario was kept."}},
      {"mode_raw", {"原始累加（不减最大值）", "raw (no max shift)"}},
      {"mode_stable", {"稳定递推（减去最大值 m）", "stable (max-shifted by m)"}},
      {"exact_note", {"整数输入：精确分数", "integer inputs: exact fractions"}},
      // Classroom (issue 10): predict then reveal, values not reached yet, the legend.
      {"not_yet", {"？（尚未算到）", "? (not reached yet)"}},
      {"hidden_answer", {"？（先猜，再揭晓）", "? (predict first)"}},
      {"reveal", {"揭晓答案", "Reveal"}},
      {"lesson_end", {"本课结束（Home 回到第一步）", "End of the lesson (Home goes back to the first step)"}},
      {"reveal_hint", {"PageDown 或 R 揭晓；再按 PageDown 进入下一步", "PageDown or R reveals; PageDown again moves on"}},
      {"empty_state", {"空：m = \u2212\u221e, l = 0, u = 0", "empty: m = \u2212\u221e, l = 0, u = 0"}},
      {"algo_reference", {"直接计算（S、P 整表写入 HBM）", "reference (S, P written to HBM)"}},
      {"algo_flash2", {"FlashAttention-2 分块顺序", "FlashAttention-2 tiled order"}},
      {"algo_flash1", {"FlashAttention-1 分块顺序", "FlashAttention-1 tiled order"}},
      {"algo_backward_recompute", {"反向：重算", "backward: recompute"}},
      {"algo_backward_reference", {"反向：物化", "backward: materialise"}},
      {"maskkind_none", {"无", "none"}},
      {"maskkind_causal", {"因果", "causal"}},
      {"maskkind_key_padding", {"键填充", "key padding"}},
      {"maskkind_explicit", {"逐项给出", "explicit"}},
      {"align_top_left", {"左上对齐", "top-left"}},
      {"align_bottom_right", {"右下对齐", "bottom-right"}},
      {"mergev_correct", {"正确：旧 l、u 同乘 α", "right: old l and u both × α"}},
      {"mergev_no_rescale", {"不重缩放", "no rescaling"}},
      {"mergev_rescale_l_only", {"只缩放 l", "rescale l only"}},
      {"mergev_rescale_u_only", {"只缩放 u", "rescale u only"}},
      {"mergev_average_of_block_outputs", {"各块输出直接平均", "mean of the tiles' outputs"}},
      {"mergev_inverted_factor_on_u", {"u 乘反了的因子 e^(m'−m)", "u times the inverted factor e^(m'−m)"}},
      {"row", {"行", "row"}},
      // Lesson scenes (issue 11): the backward diagram, MoE compute, expert parallelism, CPU/GPU.
      {"bwd_grid", {"梯度已算的块 (i, j)", "tiles with gradients done (i, j)"}},
      {"bwd_recompute_short", {"重算 (FA-2 Alg. 2) HBM 读写", "recompute (FA-2 Alg. 2), HBM"}},
      {"bwd_materialise_short", {"对照：物化反向 (FA Alg. 3)", "for contrast: materialising (FA Alg. 3)"}},
      {"bwd_stored", {"存在 HBM", "stored in HBM"}},
      {"bwd_p_reads", {"读 P（元素）", "P read (elements)"}},
      {"bwd_p_recomputed", {"片上重算的 P 块", "P tile recomputed on chip"}},
      {"bwd_sram_note", {"dK_j、dV_j 在片上累加，每个 j 只写回一次", "dK_j, dV_j add up on chip; written once per j"}},
      {"bwd_grads", {"dV_j += P^T dO_i，dK_j += dS^T Q_i", "dV_j += P^T dO_i, dK_j += dS^T Q_i"}},
      {"bwd_grads_dq", {"dQ_i += dS K_j，再写回 HBM", "dQ_i += dS K_j, then back to HBM"}},
      {"bwd_panel_now", {"反向：到此为止", "Backward so far"}},
      {"bwd_panel_values", {"梯度 dQ、dK、dV（前几行，最终值）", "Gradients dQ, dK, dV (first rows, final)"}},
      {"bwd_rows", {"行", "row"}},
      {"moe_compute_title", {"训练算力估算 C_train ≈ 6·N·D（稠密模型的近似）", "Training compute C_train ≈ 6·N·D (the dense-model approximation)"}},
      {"moe_d", {"D = 训练 token 数", "D = training tokens"}},
      {"moe_n_total", {"N 取总参数", "N = total parameters"}},
      {"moe_n_active", {"N 取每 token 激活参数", "N = active per token"}},
      {"moe_ratio", {"两者之比", "ratio"}},
      {"moe_overcount", {"用总参数代入，算术量被高估这么多倍", "plugging in the total overestimates the arithmetic by this factor"}},
      {"moe_missing", {"用激活参数代入，又漏掉路由、all-to-all 通信与负载不均", "plugging in the active count misses routing, all-to-all and imbalance"}},
      {"moe_c_note", {"注意：C_train 是训练算力（FLOPs），不是 e4 的专家容量 C", "Note: C_train is training compute (FLOPs), not the expert capacity C of e4"}},
      {"ep_title", {"专家并行：", "Expert parallelism:"}},
      {"ep_devices", {"个设备", "devices"}},
      {"ep_device", {"设备", "device"}},
      {"ep_tokens", {"本设备的 token", "its tokens"}},
      {"ep_dispatch", {"分发（all-to-all）", "dispatch (all-to-all)"}},
      {"ep_compute", {"各设备计算自己的专家", "each device computes its experts"}},
      {"ep_combine", {"结果送回原设备合并（all-to-all）", "results sent back and combined (all-to-all)"}},
      {"ep_load", {"负载", "load"}},
      {"ep_busiest", {"最忙设备（关键路径）", "busiest device (critical path)"}},
      {"ep_local", {"本地", "local"}},
      {"ep_remote", {"跨设备副本", "copies between devices"}},
      {"ep_each_way", {"去、回各一次", "once each way"}},
      {"ep_busiest_link", {"最忙链路", "busiest link"}},
      {"ep_assignments", {"个分配", "assignments"}},
      {"ep_mean", {"平均", "mean"}},
      {"ep_panel", {"专家并行：链路上的副本数（行：从，列：到）", "Expert parallelism: copies per link (row from, column to)"}},
      {"het_gpu_hbm", {"GPU HBM：注意力与共享部分", "GPU HBM: attention and shared part"}},
      {"het_gpu_compute", {"GPU 计算注意力", "GPU computes attention"}},
      {"het_cpu_mem", {"CPU 内存：全部路由专家", "CPU memory: all routed experts"}},
      {"het_numa", {"NUMA 节点", "NUMA node"}},
      {"het_stored", {"存着", "stored"}},
      {"het_cpu_cores", {"CPU 核：计算选中的专家", "CPU cores: compute the chosen experts"}},
      {"het_weights_read", {"读权重", "weights read"}},
      {"het_binding", {"线程绑定：算某专家的线程放在存它的 NUMA 节点上", "thread binding: an expert's threads run on the NUMA node holding it"}},
      {"het_numa_note", {"跨 NUMA 节点读权重更慢", "reading weights across NUMA nodes is slower"}},
      {"het_quantised", {"量化到", "quantised to"}},
      {"het_in_memory", {"存储", "stored"}},
      {"het_read", {"读取", "read"}},
      {"het_link", {"GPU↔CPU 链路", "GPU↔CPU link"}},
      {"het_link_bytes", {"激活值", "activations"}},
      {"het_if_moved", {"若改搬权重：", "weights, if moved:"}},
      {"het_token", {"token", "token"}},
      {"het_panel", {"CPU/GPU 放置（每 token、每个 MoE 层、批量 1）", "CPU/GPU placement (per token, one MoE layer, batch 1)"}},
      {"sram_over_m", {"超出 M！", "over M!"}},
      // [numerics] the numerics report (view/numerics_panel.cpp; issue 12)
      {"num_title", {"数值诊断", "Numerics"}},
      {"num_more", {"条未列出", "more not listed"}},
      {"num_exp_overflow", {"指数上溢", "exp overflow"}},
      {"num_weights_underflow", {"权重全部下溢", "all weights underflow"}},
      {"num_infinite_score", {"分数为无穷", "infinite score"}},
      {"num_nan", {"NaN（非数）", "NaN"}},
      {"num_out_of_range", {"超出工作精度范围", "out of range"}},
      {"num_accumulator_overflow", {"累加器溢出", "accumulator overflow"}},
      {"num_hint_exp_overflow", {"原始累加不减最大值：e^s 超过最大浮点数变成 +∞，随后 ∞/∞ 或 0·∞ 成为 NaN。稳定递推先减去 m，e^(s−m) ≤ 1，不会上溢。",
                                 "raw mode does not subtract the max: e^s passes the largest float and becomes +∞, then ∞/∞ or 0·∞ gives NaN. The stable recurrence subtracts m first, so e^(s−m) ≤ 1 never overflows."}},
      {"num_hint_weights_underflow", {"这里没有被遮蔽的位置：每个 e^s 都下溢为 0，所以 l = 0，显示的输出不是答案。直接计算（先减最大值）给出真值。",
                                      "nothing here is masked: every e^s underflowed to 0, so l = 0 and the output shown is not the answer. The direct reference (max-shifted) gives the true value."}},
      {"num_hint_infinite_score", {"Q·K 超出工作精度，分数成了 ±∞；减去最大值也救不了：∞ − ∞ = NaN。",
                                   "Q·K overflowed the working precision, so the score is ±∞; subtracting the max cannot help: ∞ − ∞ = NaN."}},
      {"num_hint_nan", {"NaN 不等于任何数（包括它自己）：与直接计算的比对算作不一致。",
                        "NaN equals nothing, not even NaN: the comparison with the reference counts it as a mismatch."}},
      {"num_hint_out_of_range", {"这个输入在工作精度中放不下（float 最大约 3.4e38）：转换时变成 ±∞ 或 0。",
                                 "this input does not fit the working precision (float's largest is about 3.4e38): it becomes ±∞ or 0 on conversion."}},
      {"num_hint_accumulator_overflow", {"每一项都是有限数，但它们的和超过了最大浮点数。",
                                         "every term is finite, but their sum passed the largest floating-point number."}},
      // GPU panel and `blockwise-cli gpu` (issue 15)
      {"gpu_live_badge", {"实时", "LIVE"}},
      {"gpu_replay_of", {"回放：录制于", "Replay of a run recorded on"}},
      {"gpu_paused", {"已暂停", "paused"}},
      {"gpu_play", {"播放", "Play"}},
      {"gpu_pause", {"暂停", "Pause"}},
      {"gpu_speed", {"速度（GPU 时间放慢倍数）", "speed (GPU time slowed by)"}},
      {"gpu_time_at", {"GPU 时间", "GPU time"}},
      {"gpu_computed", {"已算的块", "tiles computed"}},
      {"gpu_skipped_tiles", {"跳过（整块被遮蔽）", "skipped (fully masked)"}},
      {"gpu_lanes", {"SM × 时间：每行一个 SM，每段一个块从开始到结束", "SM × time: one lane per SM, one bar per tile from start to end"}},
      {"gpu_sms_idle", {"个 SM 空闲", "SMs idle"}},
      {"gpu_roofline", {"屋顶线：这个核函数离设备峰值多远", "Roofline: how far this kernel is from the device's peaks"}},
      {"gpu_roof_x", {"算术强度（FLOP / HBM 字节，模型）", "arithmetic intensity (FLOP per HBM byte, model)"}},
      {"gpu_roof_of_hbm", {"（受 HBM 带宽限制的上限）", "of the HBM-bound roof"}},
      {"gpu_roof_of_peak", {"（算力峰值）", "of the compute peak"}},
      {"gpu_roof_unknown", {"不知道这块设备的峰值，不画屋顶线。", "This device's peaks are unknown: no roofline."}},
      {"gpu_driver_detail", {"详情", "details"}},
      // Desktop (issue 13): settings window, shortcuts, start-up and editor messages
      {"key_settings", {"Ctrl+,\t设置：语言、配色、字号、显示器、导出文件夹、播放速度", "Ctrl+,\tsettings: language, palette, text size, monitor, export folder, play speed"}},
      {"key_reveal", {"R\t揭晓先猜问题的答案", "R\treveal the answer to a predict-first question"}},
      {"key_escape", {"Esc\t关闭本表、打开对话框或设置", "Esc\tclose this list, the open dialog or the settings"}},
      {"settings_title", {"设置", "Settings"}},
      {"settings_button", {"设置", "Settings"}},
      {"set_language", {"语言", "Language"}},
      {"set_palette", {"配色", "Palette"}},
      {"set_classroom", {"教室", "Classroom"}},
      {"set_font", {"字号（逻辑像素）", "Text size (logical px)"}},
      {"set_default", {"默认", "Default"}},
      {"set_monitor", {"全屏所用显示器", "Fullscreen monitor"}},
      {"set_export_dir", {"导出文件夹", "Export folder"}},
      {"set_play_speed", {"播放速度", "Play speed"}},
      {"set_speed_format", {"每秒 %.1f 个事件", "%.1f events per second"}},
      {"set_saved_in", {"自动保存到", "Saved automatically in"}},
      {"nothing_loaded", {"没有打开任何课程或场景。", "Nothing was loaded."}},
      {"masked_hint", {"提示：被遮蔽的 logit 要写成带引号的 \"-inf\"，例如 1, \"-inf\", 2。", "Hint: a masked logit is written \"-inf\" in quotes, e.g. 1, \"-inf\", 2."}},
  };
  return table;
}

}  // namespace

std::string ShortStateWord(TileState s, const std::string& lang) {
  switch (s) {
    case TileState::kPending: return UiText("short_pending", lang);
    case TileState::kInSram: return UiText("short_now", lang);
    case TileState::kProcessed: return UiText("short_done", lang);
    case TileState::kMasked: return UiText("short_skip", lang);
    default: return StateWord(s, lang);
  }
}

const char* StateBadge(TileState s) {
  switch (s) {
    case TileState::kPending: return "\u25cb";
    case TileState::kInSram: return "\u25c6";
    case TileState::kProcessed: return "\u2713";
    case TileState::kMasked: return "\uff0f";
    case TileState::kWritten: return "\u25bc";
    case TileState::kNotWritten: return "\u25c7";
    case TileState::kNotStored: return "\u25a1";
    case TileState::kNone: break;
  }
  return "";
}

std::string StateWord(TileState s, const std::string& lang) {
  switch (s) {
    case TileState::kPending: return UiText("pending", lang);
    case TileState::kInSram: return UiText("in_sram", lang);
    case TileState::kProcessed: return UiText("done", lang);
    case TileState::kMasked: return UiText("masked", lang);
    case TileState::kWritten: return UiText("written", lang);
    case TileState::kNotWritten: return UiText("not_written", lang);
    case TileState::kNotStored: return UiText("not_stored", lang);
    case TileState::kNone: break;
  }
  return "";
}

namespace {

// "w 2, 1 · v 10, 20" for positions [b, e) — the block's data, shown when it fits.
std::string BlockDetail(const engine::SingleQueryRun& run, int b, int e) {
  const auto& p = run.problem;
  const bool exact = run.exact.has_value();
  std::string w = p.score_kind == engine::ScoreKind::kWeights ? "w " : "s ";
  std::string v = "v ";
  const std::vector<std::string> s = exact ? std::vector<std::string>() : FormatDistinct(p.scores);
  for (int i = b; i < e; ++i) {
    w += (i > b ? ", " : "") + (exact ? FormatFraction((*p.exact_weights)[i]) : s[i]);
    Eigen::VectorXd row = p.values.row(i).transpose();
    v += (i > b ? ", " : "") + (exact ? FormatExactVector((*p.exact_values)[i]) : FormatVector(row));
  }
  return w + "  \u00b7  " + v;
}

SceneRect Tile(std::string id, float x, float y, float w, float h, TileState s, const Palette& p,
               const std::string& lang, std::string label) {
  SceneRect r;
  r.id = std::move(id);
  r.x = x, r.y = y, r.w = w, r.h = h;
  r.state = s;
  const TileStyle style = Style(s, p);
  r.fill = style.fill;
  r.border = s == TileState::kWritten ? p.write_arrow : p.border;
  r.border_em = p.line_em;
  r.hatched = style.hatched;
  r.dashed = style.dashed;
  r.label = std::move(label);
  r.sublabel = StateWord(s, lang);
  return r;
}

SceneRect Panel(std::string id, float x, float y, float w, float h, Color fill, const Palette& p) {
  SceneRect r;
  r.id = std::move(id);
  r.x = x, r.y = y, r.w = w, r.h = h;
  r.fill = fill;
  r.border = p.border;
  r.border_em = p.line_em;
  return r;
}

// Read/write arrows run above the tiles: up from the source, across, down into the target.
SceneArrow OverTheTop(std::string id, ArrowKind kind, float x_from, float x_to, float y_tiles, float y_lane,
                      Color c, std::string label) {
  SceneArrow a;
  a.id = std::move(id);
  a.kind = kind;
  a.points = {{x_from, y_tiles}, {x_from, y_lane}, {x_to, y_lane}, {x_to, y_tiles}};
  a.color = c;
  a.label = std::move(label);
  a.label_at = {std::min(x_from, x_to) + 0.6f, y_lane - 1.25f};
  return a;
}

}  // namespace

const std::string& UiText(const std::string& key, const std::string& lang) {
  const auto& t = UiTable();
  const auto it = t.find(key);
  if (it == t.end()) return key;
  return lang == "zh" ? it->second.first : it->second.second;
}

std::vector<std::string> AllUiTexts() {
  std::vector<std::string> out;
  for (const auto& [k, v] : UiTable()) {
    out.push_back(v.first);
    out.push_back(v.second);
  }
  return out;
}

const SceneRect* Scene::FindRect(const std::string& id) const {
  for (const auto& r : rects)
    if (r.id == id) return &r;
  return nullptr;
}
const SceneArrow* Scene::FindArrow(const std::string& id) const {
  for (const auto& a : arrows)
    if (a.id == id) return &a;
  return nullptr;
}

Scene BuildQueryScene(const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal) {
  // Layout (em): HBM panel on the left, SRAM panel on the right, tiles in two rows.
  constexpr float kW = 52, kH = 21;
  constexpr float kHbmX = 0, kHbmW = 31, kSramX = 33, kSramW = 19;
  constexpr float kRow1 = 4.5f, kRow2 = 12.5f, kTileH = 4.5f, kLane = 3.3f;
  constexpr float kKvX0 = 7.0f, kKvX1 = 30.0f, kGap = 0.5f;

  event = std::clamp(event, 0, static_cast<int>(run.events.size()) - 1);
  const auto& ev = run.events[event];
  const int merged = run.BlocksMergedAt(event);
  const int in_sram = run.BlockInSramAt(event);

  Scene sc;
  sc.width = kW;
  sc.height = kH;
  sc.background = pal.background;

  sc.rects.push_back(Panel("hbm", kHbmX, 0, kHbmW, kH, pal.panel_hbm, pal));
  sc.rects.push_back(Panel("sram", kSramX, 0, kSramW, kH, pal.panel_sram, pal));
  sc.texts.push_back({"hbm.title", kHbmX + 0.6f, 0.5f, 1.15f, pal.text, UiText("hbm_title", lang)});
  sc.texts.push_back({"sram.title", kSramX + 0.6f, 0.5f, 1.15f, pal.text, UiText("sram_title", lang)});

  // HBM: Q, the K/V blocks, the S/P tables the tiled order never stores, O.
  sc.rects.push_back(Tile("hbm.q", 1, kRow1, 5, kTileH, TileState::kNone, pal, lang, "Q"));
  sc.rects.back().fill = pal.not_written;
  sc.rects.back().sublabel = UiText("q_read_once", lang);

  const int n = static_cast<int>(run.problem.scores.size());
  const int T = run.BlockCount();
  const float usable = (kKvX1 - kKvX0) - kGap * static_cast<float>(T - 1);
  float x = kKvX0;
  std::vector<float> kv_center(T + 1, 0);
  for (const auto& b : run.blocks) {
    const float w = std::max(1.2f, usable * static_cast<float>(b.end - b.begin) / static_cast<float>(n));
    TileState s = TileState::kPending;
    if (b.all_masked) s = TileState::kMasked;  // masked by the input, not l_b = 0 from underflow
    else if (b.block == in_sram) s = TileState::kInSram;
    else if (b.block <= merged) s = TileState::kProcessed;
    SceneRect r = Tile("hbm.kv." + std::to_string(b.block), x, kRow1, w, kTileH, s, pal, lang,
                       "K/V " + std::to_string(b.block));
    const std::string detail = BlockDetail(run, b.begin, b.end);
    if (static_cast<float>(detail.size()) * 0.5f < w - 0.6f) r.label += "\n" + detail;
    sc.rects.push_back(std::move(r));
    kv_center[b.block] = x + w / 2;
    x += w + kGap;
  }
  sc.rects.push_back(Tile("hbm.sp", 1, kRow2, 16, kTileH, TileState::kNotStored, pal, lang, UiText("sp_ghost", lang)));
  const bool written = ev.kind == engine::QueryEventKind::kWriteOutput;
  sc.rects.push_back(Tile("hbm.o", 23, kRow2, 7, kTileH, written ? TileState::kWritten : TileState::kNotWritten, pal,
                          lang, "O"));
  if (written) sc.rects.back().label += " = " + QuantitiesAt(run, event).at("output");

  // SRAM: the fixed Q block, the current K/V block, the accumulator.
  sc.rects.push_back(Tile("sram.q", kSramX + 1, kRow1, 5, kTileH, TileState::kInSram, pal, lang, UiText("q_fixed", lang)));
  if (in_sram > 0) {
    const auto& b = run.blocks[in_sram - 1];
    SceneRect r = Tile("sram.kv", kSramX + 7, kRow1, 11, kTileH, b.all_masked ? TileState::kMasked : TileState::kInSram,
                       pal, lang, "K/V " + std::to_string(in_sram));
    const std::string detail = BlockDetail(run, b.begin, b.end);
    if (static_cast<float>(detail.size()) * 0.5f < 10.4f) r.label += "\n" + detail;
    sc.rects.push_back(std::move(r));
  } else {
    SceneRect r = Tile("sram.kv", kSramX + 7, kRow1, 11, kTileH, TileState::kNone, pal, lang, UiText("kv_slot", lang));
    r.fill = pal.panel_sram;
    r.dashed = true;
    r.sublabel = UiText("slot_empty", lang);
    sc.rects.push_back(std::move(r));
  }
  SceneRect acc = Panel("sram.acc", kSramX + 1, kRow2 - 1.5f, 17, 8.5f, {255, 255, 255}, pal);
  acc.label = UiText("acc_title", lang);
  sc.rects.push_back(acc);
  const Quantities q = QuantitiesAt(run, event);
  const float ax = kSramX + 1.8f;
  sc.texts.push_back({"acc.m", ax, kRow2 + 0.6f, 1.35f, pal.text, "m = " + q.at("m")});
  sc.texts.push_back({"acc.l", ax, kRow2 + 2.4f, 1.35f, pal.text, "l = " + q.at("l")});
  sc.texts.push_back({"acc.u", ax, kRow2 + 4.2f, 1.35f, pal.text, "u = " + q.at("u")});

  // Legend along the bottom of the HBM panel.
  sc.texts.push_back({"legend.read", 1, kH - 2.0f, 0.9f, pal.read_arrow, "\u2192 " + UiText("legend_read", lang)});
  sc.texts.push_back({"legend.write", 16, kH - 2.0f, 0.9f, pal.write_arrow, "\u2192 " + UiText("legend_write", lang)});

  // The transfer of this event.
  const float sram_q_c = kSramX + 3.5f, sram_kv_c = kSramX + 12.5f;
  switch (ev.kind) {
    case engine::QueryEventKind::kStart:
      sc.arrows.push_back(OverTheTop("read.q", ArrowKind::kRead, 3.5f, sram_q_c, kRow1, kLane, pal.read_arrow,
                                     UiText("read", lang) + " Q"));
      break;
    case engine::QueryEventKind::kLoadBlock:
      sc.arrows.push_back(OverTheTop("read.kv." + std::to_string(ev.block), ArrowKind::kRead, kv_center[ev.block],
                                     sram_kv_c, kRow1, kLane, pal.read_arrow,
                                     UiText("read", lang) + " K/V " + std::to_string(ev.block)));
      break;
    case engine::QueryEventKind::kUpdate: {
      SceneArrow a;
      a.id = "merge." + std::to_string(ev.block);
      a.kind = ArrowKind::kMerge;
      a.points = {{sram_kv_c, kRow1 + kTileH}, {sram_kv_c, kRow2 - 1.5f}};
      a.color = pal.merge_arrow;
      a.label = UiText("merge", lang);
      a.label_at = {kSramX + 1.0f, kRow1 + kTileH + 0.15f};
      sc.arrows.push_back(std::move(a));
      break;
    }
    case engine::QueryEventKind::kWriteOutput: {
      SceneArrow a;
      a.id = "write.o";
      a.kind = ArrowKind::kWrite;
      a.points = {{kSramX + 1, kRow2 + 2.25f}, {30, kRow2 + 2.25f}};
      a.color = pal.write_arrow;
      a.label = UiText("write", lang);
      a.label_at = {22.5f, kRow2 + kTileH + 0.4f};
      sc.arrows.push_back(std::move(a));
      break;
    }
  }
  return sc;
}

}  // namespace bw::view
