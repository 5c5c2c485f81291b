// Counter formulas per algorithm (see attention_formulas.h). Each is written from the paper's loop
// structure: which blocks are loaded how often, which tiles are computed. For causal masks the
// tiles Q block i computes are the first n_i = clamp(⌈(i·B_r + r_i + δ) / B_c⌉, 0, T_c), so sums
// over i of r_i, n_i and C_i = min(N_k, n_i·B_c) give every count.
#include "engine/attention_formulas.h"

#include <algorithm>

namespace bw::engine {
namespace {

using I64 = std::int64_t;

struct BlockGeometry {
  bool causal = false;
  I64 T_r = 0, T_c = 0;
  I64 sum_n = 0;       // Σ_i n_i: tiles computed
  I64 sum_rC = 0;      // Σ_i r_i·C_i: entries of S computed
  I64 sum_rn = 0;      // Σ_i r_i·n_i: (row, tile) pairs — Q_i-side loads in the K/V-outer orders
  I64 sum_C = 0;       // Σ_i C_i: K/V rows the FA-2 order loads
  I64 n_max = 0;       // max_i n_i: K/V blocks any Q block needs
  I64 r_star = 0;      // largest Q block that computes at least one tile
  I64 r_max = 0;       // largest Q block
};

BlockGeometry Geometry(const AttentionShape& s, TileSizes t, const Mask& mask) {
  BlockGeometry g;
  g.causal = mask.kind == MaskKind::kCausal;
  g.T_r = CeilDiv(s.n_q, t.B_r);
  g.T_c = CeilDiv(s.n_k, t.B_c);
  const I64 delta = mask.CausalOffset(s.n_q, s.n_k);
  for (I64 i = 0; i < g.T_r; ++i) {
    const I64 r0 = i * t.B_r, r = std::min(t.B_r, s.n_q - r0);
    I64 n = g.T_c;
    if (g.causal) {
      const I64 lim = r0 + r + delta;  // keys [0, lim) visible to the block's last row
      n = lim <= 0 ? 0 : std::min(g.T_c, CeilDiv(lim, t.B_c));
    }
    const I64 C = std::min(s.n_k, n * t.B_c);
    g.sum_n += n;
    g.sum_rC += r * C;
    g.sum_rn += r * n;
    g.sum_C += C;
    g.n_max = std::max(g.n_max, n);
    if (n > 0) g.r_star = std::max(g.r_star, r);
    g.r_max = std::max(g.r_max, r);
  }
  return g;
}

class Builder {
 public:
  explicit Builder(int bytes) { f_.counters.element_bytes = bytes; }
  void Read(Tensor t, const std::string& expr, I64 v) { Set(true, t, expr, v); }
  void Write(Tensor t, const std::string& expr, I64 v) { Set(false, t, expr, v); }
  void Other(const std::string& name, const std::string& expr, I64 v, I64& field) {
    field = v;
    f_.lines.push_back(name + " = " + expr + " = " + std::to_string(v));
  }
  void Note(const std::string& s) { f_.lines.push_back(s); }
  CounterFormula& f() { return f_; }

 private:
  void Set(bool read, Tensor t, const std::string& expr, I64 v) {
    const int k = static_cast<int>(t);
    (read ? f_.counters.hbm_read_elements : f_.counters.hbm_write_elements)[k] = v;
    const std::string line = std::string(ToString(t)) + (read ? " reads" : " writes") + " = " + expr + " = " +
                             std::to_string(v) + " elements";
    (read ? f_.read_formula : f_.write_formula)[k] = line;
    (read ? f_.read_expr : f_.write_expr)[k] = expr;
    f_.lines.push_back(line);
  }
  CounterFormula f_;
};

std::string Causal(const BlockGeometry& g, const char* causal_expr, const char* full_expr) {
  return g.causal ? causal_expr : full_expr;
}

void Totals(Builder& b) {
  const Counters& c = b.f().counters;
  b.Note("HBM total = " + std::to_string(c.TotalHbmElements()) + " elements = " + std::to_string(c.TotalHbmBytes()) +
         " bytes (" + std::to_string(c.element_bytes) + " bytes per element)");
}

}  // namespace

std::optional<CounterFormula> FormulaFor(Algorithm a, const AttentionShape& s, TileSizes t, const Mask& mask,
                                         Precision precision) {
  const I64 nq = s.n_q, nk = s.n_k, dv = s.d_v, nn = nq * nk;
  // Given logits: no Q or K on chip or in HBM traffic; every Q/K term has width d = 0 and S is read.
  const bool lg = s.logits_given;
  const I64 d = lg ? 0 : s.d;
  const int bytes = ElementBytes(precision);
  Builder b(bytes);
  Counters& c = b.f().counters;
  if (a == Algorithm::kReference) {
    if (lg) {
      b.Note("FlashAttention Algorithm 0 with the logits S given (already in HBM): pass 1 (Q, K -> S) does not run");
    } else {
      b.Note("FlashAttention Algorithm 0; square case N_q = N_k = N, d_v = d: 4Nd + 4N^2 elements");
      b.Read(Tensor::kQ, "N_q*d", nq * d);
      b.Read(Tensor::kK, "N_k*d", nk * d);
      b.Write(Tensor::kS, "N_q*N_k", nn);
    }
    b.Read(Tensor::kS, "N_q*N_k", nn);
    b.Write(Tensor::kP, "N_q*N_k", nn);
    b.Read(Tensor::kP, "N_q*N_k", nn);
    b.Read(Tensor::kV, "N_k*d_v", nk * dv);
    b.Write(Tensor::kO, "N_q*d_v", nq * dv);
    b.Other("matmul FLOPs", lg ? "2*N_q*N_k*d_v" : "2*N_q*N_k*(d + d_v)", 2 * nn * (d + dv), c.matmul_flops);
    b.Other("exp count", "N_q*N_k", nn, c.exp_count);
    b.Other("HBM scratch bytes", lg ? "N_q*N_k*bytes (P; S is the input)" : "2*N_q*N_k*bytes (S and P)", (lg ? 1 : 2) * nn * bytes,
            c.hbm_scratch_bytes);
    Totals(b);
    return b.f();
  }
  if (lg && (a == Algorithm::kBackwardReference || a == Algorithm::kBackwardRecompute)) return std::nullopt;  // not run
  if (a == Algorithm::kBackwardReference) {
    b.Note("FlashAttention Algorithm 3 (materialising backward): P, dP, dS of N_q*N_k each in HBM");
    b.Read(Tensor::kP, "2*N_q*N_k (lines 1, 3)", 2 * nn);
    b.Read(Tensor::kdO, "2*N_q*d_v (lines 1, 2)", 2 * nq * dv);
    b.Write(Tensor::kdV, "N_k*d_v", nk * dv);
    b.Read(Tensor::kV, "N_k*d_v", nk * dv);
    b.Write(Tensor::kdP, "N_q*N_k", nn);
    b.Read(Tensor::kdP, "N_q*N_k", nn);
    b.Write(Tensor::kdS, "N_q*N_k", nn);
    b.Read(Tensor::kdS, "2*N_q*N_k (lines 4, 5)", 2 * nn);
    b.Read(Tensor::kK, "N_k*d", nk * d);
    b.Write(Tensor::kdQ, "N_q*d", nq * d);
    b.Read(Tensor::kQ, "N_q*d", nq * d);
    b.Write(Tensor::kdK, "N_k*d", nk * d);
    b.Other("matmul FLOPs", "2*N_q*N_k*(2d + 2d_v)", 2 * nn * (2 * d + 2 * dv), c.matmul_flops);
    b.Other("exp count", "0 (P is read, not recomputed)", 0, c.exp_count);
    b.Other("HBM scratch bytes", "3*N_q*N_k*bytes (P, dP, dS)", 3 * nn * bytes, c.hbm_scratch_bytes);
    Totals(b);
    return b.f();
  }

  if (mask.kind != MaskKind::kNone && mask.kind != MaskKind::kCausal) return std::nullopt;
  if (t.B_r < 1 || t.B_c < 1) return std::nullopt;
  const BlockGeometry g = Geometry(s, t, mask);
  const I64 c0 = std::min(t.B_c, nk);  // the first K/V block, computed by every block with n_i > 0
  if (g.causal)
    b.Note("causal (" + std::string(ToString(mask.alignment)) + ", delta = " +
           std::to_string(mask.CausalOffset(nq, nk)) + "): Q block i computes its first n_i = clamp(ceil((i*B_r + r_i + delta)/B_c), 0, T_c) tiles, "
           "C_i = min(N_k, n_i*B_c) keys; sum n_i = " + std::to_string(g.sum_n) + " of T_r*T_c = " +
           std::to_string(g.T_r * g.T_c) + " tiles");
  b.Note("T_r = ceil(N_q/B_r) = " + std::to_string(g.T_r) + ", T_c = ceil(N_k/B_c) = " + std::to_string(g.T_c));
  c.tiles_computed = g.sum_n;
  c.tiles_skipped = g.T_r * g.T_c - g.sum_n;
  b.Note("tiles computed = " + std::string(g.causal ? "sum_i n_i" : "T_r*T_c") + " = " + std::to_string(c.tiles_computed) +
         ", skipped = T_r*T_c - computed = " + std::to_string(c.tiles_skipped));

  if (a == Algorithm::kFlash2) {
    if (lg) {
      b.Note("FlashAttention-2 Algorithm 1 with the logits S given: the S_ij tile is read in place of Q_i and K_j");
      b.Read(Tensor::kS, Causal(g, "sum_i r_i*C_i", "N_q*N_k"), g.sum_rC);
    } else {
      b.Note("FlashAttention-2 Algorithm 1: Q_i read once, K_j/V_j once per computed tile, O_i and L_i written once");
      b.Read(Tensor::kQ, "N_q*d", nq * d);
      b.Read(Tensor::kK, Causal(g, "d*sum_i C_i", "T_r*N_k*d"), d * g.sum_C);
    }
    b.Read(Tensor::kV, Causal(g, "d_v*sum_i C_i", "T_r*N_k*d_v"), dv * g.sum_C);
    b.Write(Tensor::kO, "N_q*d_v", nq * dv);
    b.Write(Tensor::kL, "N_q", nq);
    b.Other("matmul FLOPs", lg ? Causal(g, "2*d_v*sum_i r_i*C_i", "2*N_q*N_k*d_v") : Causal(g, "2*(d + d_v)*sum_i r_i*C_i", "2*N_q*N_k*(d + d_v)"),
            2 * (d + dv) * g.sum_rC, c.matmul_flops);
    b.Other("exp count", Causal(g, "sum_i r_i*(C_i + n_i)", "N_q*N_k + N_q*T_c"), g.sum_rC + g.sum_rn, c.exp_count);
    const I64 peak = std::max(g.r_max * (d + dv + 2), g.r_star > 0 ? g.r_star * (d + dv + 2) + c0 * (d + dv) + g.r_star * c0 : 0);
    b.Other("SRAM peak bytes",
            lg ? "(B_r*(d_v + 2) + B_c*d_v + B_r*B_c)*bytes  [u, m, l; V_j; S_ij]"
               : "(B_r*(d + d_v + 2) + B_c*(d + d_v) + B_r*B_c)*bytes  [Q_i, u, m, l; K_j, V_j; S_ij]",
            peak * bytes, c.sram_peak_bytes);
    b.Other("HBM scratch bytes", "0", 0, c.hbm_scratch_bytes);
  } else if (a == Algorithm::kFlash1) {
    const I64 cols = std::min(nk, g.n_max * t.B_c);  // K/V rows some tile needs
    if (lg) {
      b.Note("FlashAttention Algorithm 1 with the logits S given: V_j read once; S_ij, O_i, l_i, m_i read and O_i, l_i, m_i "
             "written per computed tile");
      b.Read(Tensor::kV, Causal(g, "d_v*min(N_k, max_i n_i*B_c)", "N_k*d_v"), nq > 0 ? cols * dv : 0);
      b.Read(Tensor::kS, Causal(g, "sum_i r_i*C_i", "N_q*N_k"), g.sum_rC);
    } else {
      b.Note("FlashAttention Algorithm 1: K_j/V_j read once; Q_i, O_i, l_i, m_i read and O_i, l_i, m_i written per computed tile");
      b.Read(Tensor::kK, Causal(g, "d*min(N_k, max_i n_i*B_c)", "N_k*d"), nq > 0 ? cols * d : 0);
      b.Read(Tensor::kV, Causal(g, "d_v*min(N_k, max_i n_i*B_c)", "N_k*d_v"), nq > 0 ? cols * dv : 0);
      b.Read(Tensor::kQ, Causal(g, "d*sum_i r_i*n_i", "T_c*N_q*d"), d * g.sum_rn);
    }
    b.Read(Tensor::kO, Causal(g, "d_v*sum_i r_i*n_i", "T_c*N_q*d_v"), dv * g.sum_rn);
    b.Read(Tensor::kl, Causal(g, "sum_i r_i*n_i", "T_c*N_q"), g.sum_rn);
    b.Read(Tensor::km, Causal(g, "sum_i r_i*n_i", "T_c*N_q"), g.sum_rn);
    b.Write(Tensor::kO, Causal(g, "N_q*d_v (init) + d_v*sum_i r_i*n_i", "N_q*d_v (init) + T_c*N_q*d_v"), nq * dv + dv * g.sum_rn);
    b.Write(Tensor::kl, Causal(g, "N_q + sum_i r_i*n_i", "N_q + T_c*N_q"), nq + g.sum_rn);
    b.Write(Tensor::km, Causal(g, "N_q + sum_i r_i*n_i", "N_q + T_c*N_q"), nq + g.sum_rn);
    b.Other("matmul FLOPs", lg ? Causal(g, "2*d_v*sum_i r_i*C_i", "2*N_q*N_k*d_v") : Causal(g, "2*(d + d_v)*sum_i r_i*C_i", "2*N_q*N_k*(d + d_v)"),
            2 * (d + dv) * g.sum_rC, c.matmul_flops);
    b.Other("exp count", Causal(g, "sum_i r_i*(C_i + 2*n_i)", "N_q*N_k + 2*N_q*T_c"), g.sum_rC + 2 * g.sum_rn, c.exp_count);
    const I64 peak = g.r_star > 0 ? c0 * (d + dv) + g.r_star * (d + dv + 2) + g.r_star * c0 : 0;
    b.Other("SRAM peak bytes",
            lg ? "(B_c*d_v + B_r*(d_v + 2) + B_r*B_c)*bytes  [V_j; O_i, l_i, m_i; S_ij]"
               : "(B_c*(d + d_v) + B_r*(d + d_v + 2) + B_r*B_c)*bytes  [K_j, V_j; Q_i, O_i, l_i, m_i; S_ij]",
            peak * bytes, c.sram_peak_bytes);
    b.Other("HBM scratch bytes", "0 (O, l, m are outputs)", 0, c.hbm_scratch_bytes);
  } else if (a == Algorithm::kBackwardRecompute) {
    b.Note("FlashAttention-2 Algorithm 2: D = rowsum(dO*O) first; K_j, V_j read once; Q_i, dO_i, L_i, D_i, dQ_i read "
           "and dQ_i written per computed tile; dK_j, dV_j written once");
    const I64 cols = std::min(nk, g.n_max * t.B_c);
    b.Read(Tensor::kO, "N_q*d_v (D)", nq * dv);
    b.Read(Tensor::kdO, Causal(g, "N_q*d_v (D) + d_v*sum_i r_i*n_i", "N_q*d_v (D) + T_c*N_q*d_v"), nq * dv + dv * g.sum_rn);
    b.Write(Tensor::kD, "N_q", nq);
    b.Read(Tensor::kD, Causal(g, "sum_i r_i*n_i", "T_c*N_q"), g.sum_rn);
    b.Read(Tensor::kL, Causal(g, "sum_i r_i*n_i", "T_c*N_q"), g.sum_rn);
    b.Read(Tensor::kK, Causal(g, "d*min(N_k, max_i n_i*B_c)", "N_k*d"), nq > 0 ? cols * d : 0);
    b.Read(Tensor::kV, Causal(g, "d_v*min(N_k, max_i n_i*B_c)", "N_k*d_v"), nq > 0 ? cols * dv : 0);
    b.Read(Tensor::kQ, Causal(g, "d*sum_i r_i*n_i", "T_c*N_q*d"), d * g.sum_rn);
    b.Read(Tensor::kdQ, Causal(g, "d*sum_i r_i*n_i", "T_c*N_q*d"), d * g.sum_rn);
    b.Write(Tensor::kdQ, Causal(g, "N_q*d (init) + d*sum_i r_i*n_i", "N_q*d (init) + T_c*N_q*d"), nq * d + d * g.sum_rn);
    b.Write(Tensor::kdK, "N_k*d", nk * d);
    b.Write(Tensor::kdV, "N_k*d_v", nk * dv);
    b.Other("matmul FLOPs", Causal(g, "2*(3d + 2d_v)*sum_i r_i*C_i", "2*N_q*N_k*(3d + 2d_v)"), 2 * (3 * d + 2 * dv) * g.sum_rC,
            c.matmul_flops);
    b.Other("exp count (P recomputed)", Causal(g, "sum_i r_i*C_i", "N_q*N_k"), g.sum_rC, c.exp_count);
    const I64 peak = g.r_star > 0 ? 2 * c0 * (d + dv) + g.r_star * (2 * d + dv + 2) + 2 * g.r_star * c0 : 0;
    b.Other("SRAM peak bytes", "(2*B_c*(d + d_v) + B_r*(2d + d_v + 2) + 2*B_r*B_c)*bytes  [K_j, V_j, dK_j, dV_j; Q_i, dO_i, dQ_i, L_i, D_i; P, dS]",
            peak * bytes, c.sram_peak_bytes);
    b.Other("HBM scratch bytes", "N_q*bytes (D)", nq * bytes, c.hbm_scratch_bytes);
  } else {
    return std::nullopt;
  }
  Totals(b);
  return b.f();
}

}  // namespace bw::engine
