// The placeholder reference table; see placeholder_reference.h.
#include "view/placeholder_reference.h"

#include <cctype>
#include <cstring>

namespace bw::view {

namespace {

// "position": the value at the step's position (it changes as the trace is scrubbed);
// "final": the whole run's result, the same at every position; "input": from the file.
constexpr PlaceholderDoc kDocs[] = {
    // single_query: one query, its keys in blocks, the running (m, l, u) (view/lesson_text.cpp)
    {"single_query", "m", "position", "The running maximum m after the blocks merged so far (\"ln 2\" when exact; 0 in raw mode, which subtracts no maximum)."},
    {"single_query", "l", "position", "The running denominator l (the sum of the rescaled weights) after the blocks merged so far."},
    {"single_query", "u", "position", "The running numerator u (the sum of the rescaled weight × value) after the blocks merged so far."},
    {"single_query", "output_so_far", "position", "u / l after the blocks merged so far; \"—\" before the first block is merged."},
    {"single_query", "output", "final", "The final output of the blocked computation, u / l after the last block (the same at every position)."},
    {"single_query", "reference", "final", "The output computed directly, Σ w·v / Σ w over all keys at once: what the blocked output must equal."},
    {"single_query", "average", "final", "The wrong answer: the plain mean of the blocks' own outputs (65/3 in the 2,1,4 example)."},
    {"single_query", "blocks", "input", "The number of key blocks."},
    {"single_query", "merged", "position", "How many blocks have been merged at this position."},
    {"single_query", "n", "input", "The number of keys."},
    {"single_query", "mode", "input", "\"stable\" (subtract the running maximum) or \"raw\" (no maximum; can overflow)."},
    {"single_query", "weights", "input", "The weights as given, e.g. \"(2, 1, 4)\" (a scenario given weights; exact fractions)."},
    {"single_query", "logits", "input", "The logits as given (a scenario given logits; the weights are e^logit, so the numbers are decimals)."},
    {"single_query", "values", "input", "The values, one per key, e.g. \"(10, 20, 30)\"."},
    {"single_query", "block_sizes", "input", "The keys in each block, e.g. \"(2, 1)\"."},
    {"single_query", "m@J", "final", "The running maximum m just after block J is merged (J from 1)."},
    {"single_query", "l@J", "final", "The running denominator l just after block J is merged."},
    {"single_query", "u@J", "final", "The running numerator u just after block J is merged."},
    {"single_query", "m_b@J", "final", "Block J's own maximum, before any merge."},
    {"single_query", "l_b@J", "final", "Block J's own denominator Σ e^(s − m_b) over its keys."},
    {"single_query", "u_b@J", "final", "Block J's own numerator Σ e^(s − m_b)·v over its keys."},
    {"single_query", "local_output@J", "final", "Block J's own output u_b / l_b: what the wrong average averages."},
    {"single_query", "alpha@J", "final", "The factor e^(m_old − m_new) that rescales the running l and u when block J is merged."},
    {"single_query", "beta@J", "final", "The factor e^(m_b − m_new) that rescales block J's own l_b and u_b when it is merged."},

    // attention: Q, K, V matrices, tiles, HBM/SRAM counters (view/attention_panels.cpp)
    {"attention", "N_q", "input", "Rows of Q (queries)."},
    {"attention", "N_k", "input", "Rows of K and V (keys)."},
    {"attention", "d", "input", "Columns of Q and K (the head dimension)."},
    {"attention", "d_v", "input", "Columns of V and O."},
    {"attention", "scale", "input", "The factor applied to QKᵀ (1/√d unless the file gives one; 1 when the file gives the logits S)."},
    {"attention", "B_r", "input", "Rows of a Q tile."},
    {"attention", "B_c", "input", "Rows of a K/V tile."},
    {"attention", "T_r", "input", "The number of Q tiles, ⌈N_q / B_r⌉."},
    {"attention", "T_c", "input", "The number of K/V tiles, ⌈N_k / B_c⌉."},
    {"attention", "order", "input", "The algorithm traced: \"reference\", \"flash1\" or \"flash2\"."},
    {"attention", "mask", "input", "The mask: \"none\", \"causal\", \"key_padding\" or \"explicit\"."},
    {"attention", "event", "position", "The trace event at this position, as the timeline labels it (\"read K_2\")."},
    {"attention", "reads:TENSOR", "position", "HBM elements of TENSOR (Q K V S P O L m l D dO dP dS dQ dK dV) read up to this position."},
    {"attention", "writes:TENSOR", "position", "HBM elements of TENSOR written up to this position."},
    {"attention", "total_reads:TENSOR", "final", "HBM elements of TENSOR read by the whole forward pass."},
    {"attention", "total_writes:TENSOR", "final", "HBM elements of TENSOR written by the whole forward pass."},
    {"attention", "hbm_elements", "position", "HBM elements read and written up to this position."},
    {"attention", "hbm_bytes", "position", "The same traffic in bytes (\"1.5 KiB\")."},
    {"attention", "total_hbm_elements", "final", "HBM elements read and written by the whole forward pass."},
    {"attention", "reference_hbm_elements", "final", "HBM elements of the materialising reference (S and P written to HBM) on the same input."},
    {"attention", "flash1_hbm_elements", "final", "HBM elements of FlashAttention-1's order on the same input (a scenario that compares orders)."},
    {"attention", "flash2_hbm_elements", "final", "HBM elements of FlashAttention-2's order on the same input (a scenario that compares orders)."},
    {"attention", "reference_over_flash2", "final", "reference_hbm_elements / flash2_hbm_elements."},
    {"attention", "formula_hbm_elements", "final", "The closed-form HBM count the paper's analysis gives for this shape (a scenario that states it)."},
    {"attention", "M", "input", "The SRAM size M in elements that the tile sizes were derived from (a scenario that derives them)."},
    {"attention", "M_bytes", "input", "M in bytes."},
    {"attention", "sram_over_M_bytes", "final", "Bytes by which the SRAM peak exceeds M (present only when it does)."},
    {"attention", "sram_blocks_elements", "final", "Elements of the blocks Algorithm 1's tile rule sizes against M (Q_i, K_j, V_j, O_i; given logits V_j, O_i) at the largest tile (present only when the tiles come from M)."},
    {"attention", "sram_peak_bytes", "final", "The most on-chip memory live at once (tiles, S/P, m, l, u), in bytes."},
    {"attention", "sram_peak_elements", "final", "The SRAM peak in elements: the rule's blocks with the S_ij tile and m, l beside them (present only when the tiles come from M)."},
    {"attention", "scratch_bytes", "final", "HBM scratch the algorithm needs beyond Q, K, V and O (S and P for the reference)."},
    {"attention", "reference_scratch_bytes", "final", "The reference's HBM scratch on the same input."},
    {"attention", "flops", "position", "Matrix-product floating-point operations up to this position."},
    {"attention", "exps", "position", "Exponentials computed up to this position."},
    {"attention", "tiles_computed", "position", "Tiles computed up to this position."},
    {"attention", "tiles_skipped", "position", "Tiles skipped (wholly masked) up to this position."},
    {"attention", "total_tiles_computed", "final", "Tiles computed by the whole pass."},
    {"attention", "total_tiles_skipped", "final", "Tiles skipped by the whole pass."},
    {"attention", "max_abs_error", "final", "The largest |O_tiled − O_reference| over all entries."},
    {"attention", "flagged_rows", "final", "Rows whose every key is masked (their output is defined as 0 and flagged)."},
    {"attention", "O[I,J]", "final", "Entry (I, J) of the output O, from 1 (the first 8 × 8 only)."},
    {"attention", "bwd_recompute_hbm_elements", "final", "HBM elements of the backward pass that recomputes P from Q, K and the saved statistics."},
    {"attention", "bwd_reference_hbm_elements", "final", "HBM elements of the materialising backward pass (reads the stored P)."},
    {"attention", "bwd_recompute_scratch_bytes", "final", "HBM scratch of the recomputing backward pass."},
    {"attention", "bwd_reference_scratch_bytes", "final", "HBM scratch of the materialising backward pass."},
    {"attention", "bwd_recompute_flops", "final", "Matrix-product operations of the recomputing backward pass."},
    {"attention", "bwd_reference_flops", "final", "Matrix-product operations of the materialising backward pass."},
    {"attention", "bwd_recompute_exps", "final", "Exponentials of the recomputing backward pass."},
    {"attention", "bwd_reference_exps", "final", "Exponentials of the materialising backward pass."},
    {"attention", "bwd_recompute_reads:TENSOR", "final", "HBM elements of TENSOR read by the recomputing backward pass."},
    {"attention", "bwd_recompute_writes:TENSOR", "final", "HBM elements of TENSOR written by the recomputing backward pass."},
    {"attention", "bwd_reference_reads:TENSOR", "final", "HBM elements of TENSOR read by the materialising backward pass."},
    {"attention", "bwd_reference_writes:TENSOR", "final", "HBM elements of TENSOR written by the materialising backward pass."},
    {"attention", "bwd_max_abs_diff", "final", "The largest difference between the two backward passes' dQ, dK and dV."},
    {"attention", "forward_flops", "final", "Matrix-product operations of the forward pass (to set against the backward's)."},
    {"attention", "bwd_events", "final", "The number of backward trace events."},
    {"attention", "bwd_event", "position", "The backward event at this position; \"—\" in the forward part of the trace."},
    {"attention", "bwd_hbm_elements_now", "position", "HBM elements of the backward pass up to this position."},
    {"attention", "bwd_reads_now:TENSOR", "position", "HBM elements of TENSOR read by the backward pass up to this position."},
    {"attention", "bwd_writes_now:TENSOR", "position", "HBM elements of TENSOR written by the backward pass up to this position."},
    {"attention", "bwd_tiles_done", "position", "Backward tiles whose gradients are computed at this position."},
    {"attention", "bwd_tiles_total", "final", "Backward tiles in all."},
    {"attention", "bwd_recompute_formula_hbm_elements", "final", "The closed-form HBM count of the recomputing backward pass."},
    {"attention", "bwd_reference_formula_hbm_elements", "final", "The closed-form HBM count of the materialising backward pass."},
    {"attention", "dQ[I,J]", "final", "Entry (I, J) of the gradient dQ, from 1 (the first 4 × 4 only)."},
    {"attention", "dK[I,J]", "final", "Entry (I, J) of the gradient dK, from 1 (the first 4 × 4 only)."},
    {"attention", "dV[I,J]", "final", "Entry (I, J) of the gradient dV, from 1 (the first 4 × 4 only)."},

    // moe: a mixture-of-experts model, its router and (optionally) where its weights live (view/moe_model.cpp)
    {"moe", "shared_params", "input", "Parameters every token uses (the shared part)."},
    {"moe", "expert_params", "input", "Parameters of one expert."},
    {"moe", "experts", "input", "The number of experts."},
    {"moe", "top_k", "input", "Experts chosen per token."},
    {"moe", "total_params", "final", "All parameters: shared + experts × expert_params."},
    {"moe", "active_params", "final", "Parameters one token uses: shared + top_k × expert_params."},
    {"moe", "idle_params", "final", "Parameters one token leaves idle: total − active."},
    {"moe", "experts_total_params", "final", "All experts' parameters together."},
    {"moe", "experts_active_params", "final", "The chosen experts' parameters for one token."},
    {"moe", "total_params_exact", "final", "total_params as an integer with separators."},
    {"moe", "active_params_exact", "final", "active_params as an integer with separators."},
    {"moe", "active_fraction", "final", "active / total as a fraction."},
    {"moe", "tokens", "input", "The number of tokens routed."},
    {"moe", "assignments", "final", "Token-to-expert assignments: tokens × top_k."},
    {"moe", "capacity", "final", "The most tokens one expert accepts (\"∞\" without a capacity factor)."},
    {"moe", "capacity_factor", "input", "The capacity factor as given (a fraction), or \"—\"."},
    {"moe", "dropped_assignments", "final", "Assignments refused because the expert was full."},
    {"moe", "tokens_fully_dropped", "final", "Tokens that lost every expert they chose."},
    {"moe", "max_demand", "final", "The most assignments any expert was asked for."},
    {"moe", "mean_demand", "final", "Assignments per expert on average, as a fraction."},
    {"moe", "imbalance", "final", "max_demand / mean_demand, as a fraction."},
    {"moe", "demand", "final", "Assignments asked of each expert, e.g. \"(3, 1, 2)\"."},
    {"moe", "served", "final", "Assignments each expert accepted."},
    {"moe", "served_now", "position", "Assignments each expert has accepted up to this position."},
    {"moe", "demand:E", "final", "Assignments asked of expert E (from 1)."},
    {"moe", "served:E", "final", "Assignments expert E accepted."},
    {"moe", "dropped:E", "final", "Assignments expert E refused."},
    {"moe", "load_now:E", "position", "Assignments expert E has accepted up to this position."},
    {"moe", "token", "position", "The token routed at this position; \"—\" before the first and after the last."},
    {"moe", "token_experts", "position", "The experts that token chose, e.g. \"E2, E5\"."},
    {"moe", "token_gates", "position", "That token's gate weights for its experts."},
    {"moe", "token_dropped", "position", "Which of that token's experts refused it, or \"—\"."},
    {"moe", "training_tokens", "input", "Tokens of training in the compute estimate (a scenario with a deployment)."},
    {"moe", "compute_total", "final", "Training compute if every parameter were used per token (FLOPs)."},
    {"moe", "compute_active", "final", "Training compute with the active parameters only (FLOPs)."},
    {"moe", "compute_ratio", "final", "compute_total / compute_active as a fraction."},
    {"moe", "compute_ratio_x", "final", "The same ratio as \"× n\"."},
    {"moe", "ep_devices", "input", "Devices the experts are spread over (expert parallelism)."},
    {"moe", "ep_remote", "final", "Token copies sent to an expert on another device."},
    {"moe", "ep_local", "final", "Token copies served by an expert on the token's own device."},
    {"moe", "ep_busiest_device", "final", "The device with the most work (from 1)."},
    {"moe", "ep_busiest_load", "final", "That device's assignments."},
    {"moe", "ep_busiest_link", "final", "The most token copies on one link."},
    {"moe", "ep_load", "final", "Assignments per device."},
    {"moe", "hidden", "input", "The hidden size of one token's activation."},
    {"moe", "activation_bytes", "input", "Bytes per activation element."},
    {"moe", "weight_bits", "input", "Bits per weight."},
    {"moe", "link_bytes_per_token", "final", "Bytes one token's activations move over the CPU–GPU link."},
    {"moe", "expert_bytes_per_token", "final", "Expert weight bytes one token touches."},
    {"moe", "gpu_weight_bytes", "final", "Weight bytes kept on the GPU."},
    {"moe", "cpu_weight_bytes", "final", "Weight bytes kept in CPU memory."},
    {"moe", "q_bits", "input", "Bits per weight of the quantised placement."},
    {"moe", "q_expert_bytes_per_token", "final", "expert_bytes_per_token with quantised weights."},
    {"moe", "q_cpu_weight_bytes", "final", "cpu_weight_bytes with quantised weights."},

    // chart: a diagram of named items in columns (view/chart_model.cpp)
    {"chart", "columns", "input", "The number of columns."},
    {"chart", "items", "input", "The number of items."},
    {"chart", "links", "input", "The number of links between items."},
    // decode: split-KV decoding, one query against a cache in splits (view/decode_model.cpp)
    {"decode", "weights", "input", "The query's weights over the whole cache, in order."},
    {"decode", "values", "input", "The values, one per key."},
    {"decode", "block_sizes", "input", "Keys per K/V tile."},
    {"decode", "n", "input", "The number of keys in the cache."},
    {"decode", "mode", "input", "raw or stable."},
    {"decode", "splits", "input", "The number of splits (thread blocks) the cache is cut into."},
    {"decode", "tiles", "input", "The number of K/V tiles in the cache."},
    {"decode", "split_tiles", "input", "Tiles per split, in key order."},
    {"decode", "m", "position", "The combine's running maximum after the splits merged so far."},
    {"decode", "l", "position", "The combine's running denominator."},
    {"decode", "u", "position", "The combine's running numerator."},
    {"decode", "output_so_far", "position", "u / l of the splits merged so far (a dash before the first)."},
    {"decode", "output", "final", "The combined output O."},
    {"decode", "reference", "final", "The true output, every key in one pass."},
    {"decode", "lse", "final", "The log-sum-exp of the whole cache, ln of the combined l (with its max)."},
    {"decode", "wrong_mean", "final", "The wrong combine: the plain mean of the split outputs."},
    {"decode", "wrong_no_rescale", "final", "The wrong combine: sum of u_s over sum of l_s, each split's max shift never undone."},
    {"decode", "wrong_max_only", "final", "The wrong combine: the O_s weighted by e^m_s alone, l_s left out."},
    {"decode", "tiles@J", "input", "Split J's number of tiles."},
    {"decode", "keys@J", "input", "Split J's number of keys."},
    {"decode", "m_s@J", "final", "Split J's own running maximum when it is done."},
    {"decode", "l_s@J", "final", "Split J's own denominator."},
    {"decode", "u_s@J", "final", "Split J's own numerator."},
    {"decode", "o_s@J", "final", "Split J's partial output O_s = u_s / l_s."},
    {"decode", "lse_s@J", "final", "Split J's log-sum-exp m_s + ln l_s, written beside O_s."},
    {"decode", "share@J", "final", "Split J's weight in the combine, e^(lse_s - lse)."},
    {"decode", "m@J", "final", "The combine's running maximum after merging split J."},
    {"decode", "l@J", "final", "The combine's denominator after merging split J."},
    {"decode", "u@J", "final", "The combine's numerator after merging split J."},
    {"decode", "alpha@J", "final", "The rescale factor on the old state when split J is merged."},
    {"decode", "beta@J", "final", "The factor on split J's own (l_s, u_s) when it is merged."},
    {"decode", "hbm_unsplit", "final", "HBM elements moved by one thread block over the whole cache (no split)."},
    {"decode", "hbm_split", "final", "HBM elements moved by the splits and the combine."},
    {"decode", "hbm_extra", "final", "What splitting adds: the partial outputs and lse written and read back."},
    {"decode", "table_reads", "final", "Block-table entries read (paged cache)."},
    {"decode", "block_table", "input", "The block table, logical page to physical page (paged cache)."},
    {"decode", "page_size", "input", "Keys per page (paged cache)."},
    {"decode", "blocks_per_sm", "input", "Thread blocks one SM runs at once (gpu.blocks_per_sm, default 2): the split rule sees sm_count x blocks_per_sm slots."},
    {"decode", "sm_count", "input", "The GPU's multiprocessors (the file's gpu.sm_count)."},
    {"decode", "thread_blocks", "input", "Thread blocks of one decoding step before splitting (batch x KV heads)."},
    {"decode", "cache_tiles", "input", "K/V tiles in that GPU's cache."},
    {"decode", "busy_unsplit", "final", "SMs with a thread block when the cache is not split."},
    {"decode", "busy_unsplit_percent", "final", "busy_unsplit as a share of the SMs."},
    {"decode", "split_count", "final", "The split count the launch rule chooses (flash-attn's num_splits_heuristic)."},
    {"decode", "split_thread_blocks", "final", "Thread blocks with that many splits."},
    {"decode", "busy_split", "final", "SMs with a thread block once the cache is split."},
    {"decode", "busy_split_percent", "final", "busy_split as a share of the SMs."},
    // ring: ring attention over simulated devices (view/ring_model.cpp)
    {"ring", "devices", "input", "P, the devices in the ring."},
    {"ring", "n", "input", "N, the rows (queries and keys) of the sequence."},
    {"ring", "order", "input", "contiguous or zigzag: how the rows are sharded."},
    {"ring", "other_order", "input", "The other order, run beside it for the balance."},
    {"ring", "step", "position", "Ring steps done at the position (0 to P)."},
    {"ring", "bytes_per_link", "final", "Bytes one link carries per step: one K/V shard."},
    {"ring", "shard_keys", "input", "Keys (rows) in one shard, N / P."},
    {"ring", "key_width", "input", "Numbers of K per row on a link: d (0 when the scenario gives logits: no K exists)."},
    {"ring", "d_v", "input", "Numbers of V per row on a link."},
    {"ring", "element_bytes", "input", "Bytes per number on a link; bytes_per_link = shard_keys x (key_width + d_v) x element_bytes."},
    {"ring", "total_link_bytes", "final", "Bytes on every link over the whole round."},
    {"ring", "sends", "final", "Shard sends over the round, P x (P - 1)."},
    {"ring", "idle_steps", "final", "(device, step) pairs with nothing to compute (a shard the mask hides)."},
    {"ring", "other_idle_steps", "final", "idle_steps in the other order."},
    {"ring", "imbalance", "final", "Sum over steps of the busiest device's pairs, over the total pairs shared evenly; 1 is perfect."},
    {"ring", "other_imbalance", "final", "imbalance in the other order."},
    {"ring", "total_pairs", "final", "(query, key) pairs the mask allows, over all devices."},
    {"ring", "max_error", "final", "Largest |ring output - one-device output|."},
    {"ring", "output_last", "final", "The last row's output from the ring."},
    {"ring", "reference_last", "final", "The last row's output on one device."},
    {"ring", "rows@J", "input", "Device J's query rows, 1-based."},
    {"ring", "pairs@J", "final", "Pairs device J computes over the round."},
    {"ring", "idle@J", "final", "Steps device J idles."},
    {"ring", "other_idle@J", "final", "Steps device J idles in the other order."},
    {"ring", "pairs_so_far@J", "position", "Pairs device J has computed in the steps done at the position."},
    {"ring", "idle_so_far@J", "position", "Steps device J has idled among the steps done at the position."},
    {"ring", "pairs_now@J", "position", "Pairs device J computes at the position's step."},
    {"ring", "shard_now@J", "position", "The shard device J holds at the position's step."},
    {"single_query", "tau", "input", "FlashAttention-4's rescale threshold τ (a scenario with rescale_threshold): a merge keeps m while the block's max exceeds it by at most τ."},
    {"single_query", "rescales_skipped", "final", "Merges that kept m and skipped the rescale of l and u under τ, over the whole run (a scenario with rescale_threshold)."},
    {"single_query", "rescales_skipped_so_far", "position", "The same among the blocks merged so far."},
    // gpu_run: a recorded GPU run replayed (view/gpu_run_model.cpp). Each meaning says where the number
    // comes from: measured (the recording), model (the traffic model) or published (a datasheet).
    {"gpu_run", "device", "input", "Measured: the GPU the run was recorded on, as the driver names it."},
    {"gpu_run", "kernel", "input", "The kernel that ran (the recording's name for it, else its algorithm: tensor_core_bf16, tiled_fa2_fp32)."},
    {"gpu_run", "n_q", "input", "N_q, the query rows per head of the recorded problem."},
    {"gpu_run", "n_k", "input", "N_k, the key rows per head."},
    {"gpu_run", "d", "input", "d, the head dimension."},
    {"gpu_run", "heads", "input", "Heads (batch x heads) in the run."},
    {"gpu_run", "mask", "input", "The mask: none, causal_top_left, causal_bottom_right, key_padding or explicit."},
    {"gpu_run", "b_r", "input", "B_r, query rows per tile: one CTA (thread block) per Q tile."},
    {"gpu_run", "b_c", "input", "B_c, key rows per K/V tile."},
    {"gpu_run", "sm_count", "input", "Measured: the device's streaming multiprocessors (SMs), as the driver reports them."},
    {"gpu_run", "ctas", "final", "The CTAs the kernel launched: heads x T_r, one per Q tile."},
    {"gpu_run", "kernel_us", "final", "Measured: the kernel's time in microseconds (CUDA events)."},
    {"gpu_run", "tflops", "final", "Measured: TFLOP/s, the model's FLOPs (4 N_q N_k d heads, halved when causal) over the measured time."},
    {"gpu_run", "gbps", "final", "Measured: GB/s, the counted HBM bytes over the measured time."},
    {"gpu_run", "bytes_read", "final", "Measured: bytes read from HBM, summed by the kernel's own counters (for the FA-2 kernels shown equal to Nsight Compute's bytes; docs/performance.md)."},
    {"gpu_run", "bytes_written", "final", "Measured: bytes written to HBM, by the kernel's own counters."},
    {"gpu_run", "tiles_total", "final", "Measured: (Q tile, K/V tile) steps in the grid, heads x T_r x T_c."},
    {"gpu_run", "tiles_computed", "final", "Measured: tile records not flagged skipped."},
    {"gpu_run", "tiles_skipped", "final", "Measured: tiles fully masked, never loaded."},
    {"gpu_run", "sms_used", "final", "Measured: SMs that computed at least one tile (the records' %smid)."},
    {"gpu_run", "sms_idle", "final", "Measured: SMs that computed no tile, sm_count - sms_used."},
    {"gpu_run", "idle_share_pct", "final", "Measured: percent of SM time idle, 1 - (time each SM ran a tile, summed) / (sm_count x span)."},
    {"gpu_run", "span_us", "final", "Measured: microseconds from the first tile's start to the last tile's end (%globaltimer)."},
    {"gpu_run", "tail_us", "final", "Measured: microseconds from the moment the first SM finished its last tile to the end."},
    {"gpu_run", "tail_share_pct", "final", "Measured: tail_us as a percent of span_us."},
    {"gpu_run", "model_bytes_read", "final", "Model: HBM bytes read as FlashAttention-2 Algorithm 1 predicts for this problem and tiling (cuda::PredictCounters)."},
    {"gpu_run", "model_bytes_written", "final", "Model: HBM bytes written, predicted the same way."},
    {"gpu_run", "model_tiles_skipped", "final", "Model: tiles the mask leaves fully masked."},
    {"gpu_run", "bytes_read_diff", "final", "Measured minus model: bytes_read - model_bytes_read (0 when the kernel moves exactly what the model says)."},
    {"gpu_run", "peak_tflops", "final", "Published: the device's datasheet peak in TFLOP/s (dense tensor-core bf16 for the 16-bit kernels, fp32 otherwise)."},
    {"gpu_run", "peak_share_pct", "final", "Measured over published: tflops as a percent of peak_tflops."},
    {"gpu_run", "t_us", "position", "The replay moment, microseconds after the first tile's start."},
    {"gpu_run", "tiles_done", "position", "Measured: tiles computed by the replay moment."},
    {"gpu_run", "busy_sms", "position", "Measured: SMs running a tile at the replay moment."},
    {"gpu_run", "done_pct", "position", "Measured: tiles_done as a percent of the tiles computed in the whole run."},
    {"gpu_run", "compare_kernel", "input", "The kernel of the recording compared with (the scenario's compare)."},
    {"gpu_run", "compare_kernel_us", "final", "Measured: that kernel's time in microseconds."},
    {"gpu_run", "compare_tflops", "final", "Measured: that kernel's TFLOP/s."},
    {"gpu_run", "compare_bytes_read", "final", "Measured: that kernel's HBM bytes read, by its counters."},
    {"gpu_run", "compare_bytes_written", "final", "Measured: that kernel's HBM bytes written."},
    {"gpu_run", "compare_sms_used", "final", "Measured: SMs that computed a tile in that run."},
    {"gpu_run", "compare_idle_share_pct", "final", "Measured: percent of SM time idle in that run."},
    {"gpu_run", "speedup", "final", "Measured: tflops / compare_tflops, the throughput ratio (for two runs of the same problem it is compare_kernel_us / kernel_us; the ratio of times would mislead when the runs do different work). Above 1: this run is faster."},
    {"gpu_run", "wg_tma_issue@J", "final", "Measured (SM clock, sampled CTAs): percent of warpgroup J's recorded time issuing TMA copies (J = 1 producer, 2 and 3 consumers)."},
    {"gpu_run", "wg_tma_wait@J", "final", "Measured: percent of warpgroup J's time waiting for a TMA copy to land (an mbarrier)."},
    {"gpu_run", "wg_wgmma_s@J", "final", "Measured: percent of warpgroup J's time in the wgmma of S = Q K^T and its wait."},
    {"gpu_run", "wg_softmax@J", "final", "Measured: percent of warpgroup J's time in the softmax (max, exp, rescale)."},
    {"gpu_run", "wg_wgmma_pv@J", "final", "Measured: percent of warpgroup J's time in the wgmma of O += P V and its wait."},
    {"gpu_run", "wg_write@J", "final", "Measured: percent of warpgroup J's time writing O and L."},
    {"gpu_run", "wg_idle@J", "final", "Measured: percent of warpgroup J's time idle (waiting its turn in the ping-pong, or a free slot)."},
};

// `name` against `pattern`: literal characters equal; "@J" takes digits; "[I,J]" takes "[digits,digits]";
// a capital word after ':' takes the rest of the name.
bool Matches(const char* pattern, const std::string& name) {
  size_t i = 0;
  for (const char* p = pattern; *p; ++p) {
    if (*p == ':' ) {
      if (i >= name.size() || name[i] != ':') return false;
      return i + 1 < name.size();   // TENSOR, E: any non-empty rest
    }
    if (*p == 'J' && p > pattern && p[-1] == '@') {
      size_t k = i;
      while (k < name.size() && std::isdigit(static_cast<unsigned char>(name[k]))) ++k;
      if (k == i) return false;
      i = k;
      continue;
    }
    if (*p == '[' && std::strncmp(p, "[I,J]", 5) == 0) {
      size_t k = i;
      if (k >= name.size() || name[k++] != '[') return false;
      const auto digits = [&] {
        const size_t s = k;
        while (k < name.size() && std::isdigit(static_cast<unsigned char>(name[k]))) ++k;
        return k > s;
      };
      if (!digits() || k >= name.size() || name[k++] != ',' || !digits() || k >= name.size() || name[k++] != ']') return false;
      i = k;
      p += 4;
      continue;
    }
    if (i >= name.size() || name[i] != *p) return false;
    ++i;
  }
  return i == name.size();
}

}  // namespace

std::span<const PlaceholderDoc> PlaceholderDocs() { return kDocs; }

const PlaceholderDoc* FindPlaceholderDoc(const std::string& kind, const std::string& name) {
  for (const auto& d : kDocs)
    if (kind == d.kind && Matches(d.pattern, name)) return &d;
  return nullptr;
}

std::string PlaceholderReferenceMarkdown() {
  std::string md =
      "# Placeholder reference\n\n"
      "<!-- Generated from src/view/placeholder_reference.cpp by `blockwise-cli placeholders --reference`;\n"
      "     tests/view/placeholder_reference_test.cpp fails when this page and the table differ. -->\n\n"
      "A lesson's texts (title, body, further, predict, answer, teacher notes, source) hold `{name}`\n"
      "placeholders that the app fills from the engine at the step's position. A number typed into prose\n"
      "is checked against nothing; a placeholder is the engine's own value. `blockwise-cli check` refuses a\n"
      "name that the step's scenario does not offer, and `blockwise-cli placeholders FILE --position P`\n"
      "lists every name a file offers there, with its value.\n\n"
      "## Forms\n\n"
      "| Written | Gives (for the 2,1,4 example's output) |\n|---|---|\n"
      "| `{output}` | the value as the panels show it: `160/7 ≈ 22.86` |\n"
      "| `{output\\|fraction}` | the exact fraction alone: `160/7` |\n"
      "| `{output\\|decimal}` | the decimal alone: `22.86` |\n"
      "| `{KEY/output}` | `output` of the lesson's scenario KEY at its last position |\n"
      "| `{{` and `}}` | a literal brace |\n\n"
      "A value with no `≈` (an integer, a count, a byte size) is the same in every form, except that a plain\n"
      "fraction such as `2/5` gets its decimal in the decimal form. A vector (`d_v` > 1) is written\n"
      "`(a, b)` and each entry takes the form.\n\n"
      "## When a value is taken\n\n"
      "- **position**: at the step's position; it changes as the class scrubs the timeline.\n"
      "- **final**: the whole run's result, the same at every position (`{output}` is the final output\n"
      "  even at `update:2`; the running value there is `{output_so_far}`).\n"
      "- **input**: from the scenario file.\n\n"
      "Exact fractions come only from a single-query or decode scenario given `weights` (integers or fractions);\n"
      "`logits` are exponentiated, so their numbers are decimals, whatever the inputs.\n\n"
      "Capitals in a name stand for a part you choose: `J` a block number from 1, `I,J` a row and column\n"
      "from 1, `TENSOR` one of Q K V S P O L m l D dO dP dS dQ dK dV, `E` an expert number from 1.\n";
  const char* kinds[] = {"single_query", "attention", "moe", "chart", "decode", "ring", "gpu_run"};
  for (const char* kind : kinds) {
    md += std::string("\n## Scenario kind `") + kind + "`\n\n| Name | Taken | Meaning |\n|---|---|---|\n";
    for (const auto& d : kDocs)
      if (std::strcmp(d.kind, kind) == 0) md += std::string("| `{") + d.pattern + "}` | " + d.when + " | " + d.meaning + " |\n";
  }
  return md;
}

}  // namespace bw::view
