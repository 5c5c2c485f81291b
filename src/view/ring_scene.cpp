// The ring lesson's diagram; see ring_scene.h.
#include "view/ring_scene.h"

#include <algorithm>

#include "view/fit_em.h"
#include "view/format.h"
#include "view/scenario_model.h"

namespace bw::view {

namespace {

// The work grid's cell for device d at step t: pending, idle (hatched), merging now, or done.
TileState CellState(const RingSceneState& s, int d, int t) {
  const auto& ds = s.run->steps[static_cast<size_t>(t)].devices[static_cast<size_t>(d)];
  const bool done = t < s.k, now = t == s.k - 1 && !s.send && !s.written;
  return !done ? TileState::kPending : ds.idle ? TileState::kMasked : now ? TileState::kInSram : TileState::kProcessed;
}

// Where each device sits at the floors (row 0 left to right, row 1 right to left) and where its link
// points: the first half of the devices along the top, the rest back along the bottom.
enum Dir { kRight, kDown, kLeft, kUp };
struct RingPlaces {
  int P = 0, c = 0;  // devices, columns
  explicit RingPlaces(int p) : P(p), c((p + 1) / 2) {}
  int Col(int d) const { return d < c ? d : 2 * c - 1 - d; }
  int Row(int d) const { return d < c ? 0 : 1; }
  Dir DirOf(int d) const {
    if (d < c - 1) return kRight;
    if (d == c - 1) return kDown;
    if (d < P - 1) return kLeft;
    return Col(P - 1) == 0 ? kUp : kLeft;  // the last link, back to device 1
  }
  std::string LinkLabel(int d) const {
    static constexpr const char* kArrow[] = {"\u2192 ", "\u2193 ", "\u2190 ", "\u2191 "};
    return kArrow[DirOf(d)] + std::to_string((d + 1) % P + 1);
  }
};

// The floors layout's sizes at one scale, in em.
struct Dims {
  FloorLines fl;
  float te, title_line, dev_w, dev_h, link_w, link_h, hgap, vgap, ring_w, ring_top, num, cell_h, cell_w, label_w, grid_x, grid_y, W, H;
  std::vector<std::string> grid_title;
};

// What the floors layout must hold, measured at size 1 (EstimateWidthEm): a device's box in the long
// form (its name, its rows, the shard it holds) and the narrow one a narrow box takes (its name over the
// shard it holds, on two lines: "holds", "shard 4" — its rows are the devices panel's; the grid's rows by
// the device's number alone), the link's bytes, the grid's numbers and title.
class FloorLayout {
 public:
  FloorLayout(const RingSceneState& s, const SceneFrame& frame) : places(static_cast<int>(s.devs.size())), frame_(frame) {
    if (ff_.floor_text_px <= 0) ff_.floor_text_px = 24, ff_.floor_key_px = 36;  // a projector's at 1080 rows
    lpe_ = frame.line_per_em > 0 ? frame.line_per_em : 1.448f;
    bytes = FormatBytes(s.run->bytes_per_link_per_step);
    grid_title_ = UiText(Str::ring_grid_title, s.lang);
    holds_wrapped.resize(s.devs.size());
    for (size_t d = 0; d < s.devs.size(); ++d) {
      const RingDeviceBox& v = s.devs[d];
      const float w = std::max(EstimateWidthEm(v.name), EstimateWidthEm(v.rows));
      text_w_[0] = std::max({text_w_[0], w, EstimateWidthEm(v.holds)});
      const std::vector<std::string> lines = WrapEstimated(v.holds, EstimateWidthEm(v.name));
      text_w_[1] = std::max(text_w_[1], EstimateWidthEm(v.name));
      for (const auto& l : lines) text_w_[1] = std::max(text_w_[1], EstimateWidthEm(l)), holds_wrapped[d] += (holds_wrapped[d].empty() ? "" : "\n") + l;
      box_lines_[1] = std::max(box_lines_[1], 1 + static_cast<int>(lines.size()));
      row_label_w_[0] = std::max(row_label_w_[0], EstimateWidthEm(v.name));
      row_label_w_[1] = std::max(row_label_w_[1], EstimateWidthEm(std::to_string(d + 1)));
    }
    for (const auto& st : s.run->steps)
      for (const auto& ds : st.devices) num_w_ = std::max(num_w_, EstimateWidthEm(FormatInt(ds.pairs)));
  }

  const SceneFrame& Floors() const { return ff_; }

  // The sizes at `em_px` pixels per em (a line at the floors is a fixed number of pixels, so the fewer
  // pixels per em, the more em it takes), `width_em` wide where the frame's box is wider than needed.
  Dims At(float em_px, float width_em, int form) const {
    Dims m;
    m.fl = FloorLinesAt(ff_, em_px);
    const FloorLines& fl = m.fl;
    const float te = fl.text / lpe_, ke = fl.key / lpe_;  // an ideograph's width at the floors, in em
    const int c = places.c, P = places.P;
    m.te = te;
    // A title's line as the painter draws it: its size (1 em) enlarged by the frame's text scale (a
    // projector's 1.6; Ctrl ±), or the floor's line where that is larger. (At 1 em, RING/r0's title ran
    // into the device boxes under it on a 1080p projector.)
    m.title_line = std::max(fl.text, lpe_ * std::max(1.0f, frame_.text_scale));
    m.dev_w = text_w_[form] * te + 0.9f;
    // Its lines and the state's word (or symbol), with the painter's pads and gaps.
    m.dev_h = static_cast<float>(box_lines_[form] + 1) * fl.text + 1.0f;
    m.link_w = std::max({2.4f, EstimateWidthEm(bytes) * ke + 0.7f, 2.2f * te + 0.7f});
    m.link_h = std::min(m.dev_h - 0.4f, 2 * fl.text + fl.key + 0.9f);
    m.hgap = m.link_w + 0.5f, m.vgap = m.link_h + 0.5f;
    m.ring_top = 0.25f + m.title_line + 0.3f;
    // A cell's number: its line's height, at least the key floor's, larger with Ctrl + (the box may
    // narrow as the side panel's text grows: the numbers still grow).
    m.num = std::max(1.3f * std::clamp(frame_.text_scale, 1.0f, 2.0f), fl.key);
    // (A free text keeps 0.2 em inside its cell; an eighth of the number spare, for a box that fits
    // the scene a little larger than the scale found below: the number then keeps the key size.)
    m.cell_h = 1.12f * m.num + 0.5f;
    // The number, half its size clear (the placer's gap), and the symbol centred with its plate.
    const float badge_w = std::max(te, 0.85f * 1.6f / lpe_) + 0.6f;
    m.cell_w = 2 * (0.45f + num_w_ * m.num / lpe_ + 0.5f * m.num + 0.5f * badge_w) + 0.3f;
    // (The first cell's number keeps half its size clear of the row's label: the placer's gap.)
    m.label_w = row_label_w_[form] * std::max(te, 0.69f * 1.25f) + std::max(0.6f, 0.5f * m.num - 0.2f);
    m.ring_w = static_cast<float>(c) * m.dev_w + static_cast<float>(c - 1) * m.hgap;
    const float grid_min = m.label_w + static_cast<float>(P) * m.cell_w;
    m.W = 0.4f + m.ring_w + 1.2f + grid_min + 0.4f;
    // Wider than it needs (the frame's box is): the extra shared by the devices and the cells.
    if (width_em > m.W) {
      const float extra = std::min(width_em, 1.5f * m.W) - m.W;
      m.dev_w += 0.4f * extra / static_cast<float>(c);
      m.cell_w += 0.6f * extra / static_cast<float>(P);
      m.ring_w = static_cast<float>(c) * m.dev_w + static_cast<float>(c - 1) * m.hgap;
      m.W += extra;
    }
    m.grid_x = 0.4f + m.ring_w + 1.2f;
    m.grid_title = WrapEstimated(grid_title_, (m.W - m.grid_x - 0.4f) / te);
    m.grid_y = 0.25f + (m.title_line + 0.1f) * static_cast<float>(m.grid_title.size()) + 0.3f;
    m.H = std::max(m.ring_top + 2 * m.dev_h + m.vgap, m.grid_y + (m.cell_h + 0.25f) * static_cast<float>(P) - 0.25f) + 0.4f;
    return m;
  }

  RingPlaces places;
  std::string bytes;                       // the bytes a link carries per step
  std::vector<std::string> holds_wrapped;  // per device, the narrow form's "holds" lines

 private:
  const SceneFrame& frame_;
  SceneFrame ff_ = frame_;
  float lpe_ = 1.448f;
  float text_w_[2] = {0, 0}, row_label_w_[2] = {0, 0}, num_w_ = 0;
  int box_lines_[2] = {3, 2};
  std::string grid_title_;
};

// Laid out for the label floors (SceneFrame::floors). A device's box says its name, its rows and the shard
// it holds (its outputs so far are the devices panel's); a link carries its bytes while sending, on a key
// line; each grid cell's pairs are a key number of their own, left of the state's symbol the painter
// centres in the cell. False where no scale lets the boxes hold the floors' lines.
bool AddFloors(Scene& sc, const RingSceneState& s, const Palette& pal, const SceneFrame& frame) {
  const int P = static_cast<int>(s.devs.size());
  if (!frame.floors || P < 2) return false;
  const FloorLayout lay(s, frame);
  const bool known = frame.width_px > 0 && frame.height_px > 0;
  // The scale the scene will be fitted at (FitEm): the largest at which its least width and its height
  // fit the frame's box (both grow in px with the scale), found by bisection; 30 px per em (a 1080p
  // projector's box, about 1340 × 570 px) where the frame gives none. The long forms where they leave at
  // least 20 px per em (a 1080p projector's box beside a wide side panel, about 1040 × 565 px, does not).
  float em_px = 30;
  int form = 0;
  for (; known && form < 2; ++form) {
    em_px = LargestFittingEmPx([&](float px) { return lay.At(px, 0, form); }, frame.width_px, frame.height_px);
    if (em_px >= 20 * lay.Floors().floor_text_px / 24) break;
  }
  form = std::min(form, 1);
  if (known && em_px < 0.4f * lay.Floors().floor_text_px) return false;
  sc.floors = true;
  const Dims m = lay.At(em_px, known ? frame.width_px / em_px : 0, form);
  const RingPlaces& pl = lay.places;
  sc.width = m.W, sc.height = m.H;
  sc.texts.push_back({"ring.title", 0.5f, 0.25f, 1.0f, pal.text, UiText(Str::ring_devices_title, s.lang)});
  const auto dev_x = [&](int d) { return 0.4f + static_cast<float>(pl.Col(d)) * (m.dev_w + m.hgap); };
  const auto dev_y = [&](int d) { return m.ring_top + static_cast<float>(pl.Row(d)) * (m.dev_h + m.vgap); };
  for (int d = 0; d < P; ++d) {
    const RingDeviceBox& v = s.devs[static_cast<size_t>(d)];
    sc.rects.push_back(TileRect("device." + std::to_string(d + 1), dev_x(d), dev_y(d), m.dev_w, m.dev_h, v.state, pal,
                                v.name + "\n" + (form ? lay.holds_wrapped[static_cast<size_t>(d)] : v.rows + "\n" + v.holds), v.sub));
  }
  for (int d = 0; d < P; ++d) {
    // The link to the next device (the last one's goes back to device 1), in the gap between them;
    // while sending, its bytes. (Not sending, it is a line's height: an arrow and the next device.)
    const float h = s.send ? m.link_h : m.fl.text + 0.6f;
    const Dir dir = pl.DirOf(d);
    float x = 0, y = 0;
    if (dir == kRight) x = dev_x(d) + m.dev_w + 0.25f, y = dev_y(d) + (m.dev_h - h) / 2;
    else if (dir == kLeft) x = dev_x(d) - m.hgap + 0.25f, y = dev_y(d) + (m.dev_h - h) / 2;
    else x = dev_x(d) + (m.dev_w - m.link_w) / 2, y = m.ring_top + m.dev_h + (m.vgap - h) / 2;
    SceneRect link = TileRect("link." + std::to_string(d + 1), x, y, m.link_w, h, s.send ? TileState::kInSram : TileState::kNone, pal,
                              s.send ? pl.LinkLabel(d) + "\n" + lay.bytes : pl.LinkLabel(d), "");
    link.key_lines = s.send;
    if (!s.send) link.fill = pal.background;
    sc.rects.push_back(link);
  }
  // The work grid: the pairs each device computes at each step, a key number in each cell done.
  for (size_t i = 0; i < m.grid_title.size(); ++i)
    sc.texts.push_back({"ring.grid.title" + (i ? "." + std::to_string(i + 1) : std::string()), m.grid_x, 0.25f + (m.title_line + 0.1f) * static_cast<float>(i),
                        1.0f, pal.text, m.grid_title[i]});
  for (int d = 0; d < P; ++d) {
    const float y = m.grid_y + (m.cell_h + 0.25f) * static_cast<float>(d);
    const std::string D = std::to_string(d + 1);
    sc.texts.push_back({"ring.grid.device." + D, m.grid_x, y + (m.cell_h - m.title_line) / 2, 1.0f, pal.text_muted,
                        form ? D : s.devs[static_cast<size_t>(d)].name});
    for (int t = 0; t < P; ++t) {
      const std::string id = "work." + D + "." + std::to_string(t + 1);
      const float x = m.grid_x + m.label_w + m.cell_w * static_cast<float>(t);
      sc.rects.push_back(TileRect(id, x, y, m.cell_w - 0.3f, m.cell_h, CellState(s, d, t), pal, "", ""));  // the painter adds the state's symbol
      if (t < s.k) {
        sc.texts.push_back({id + ".pairs", x + 0.45f, y + 0.22f, m.num, pal.text,
                            FormatInt(s.run->steps[static_cast<size_t>(t)].devices[static_cast<size_t>(d)].pairs)});
        sc.texts.back().key = true;
      }
    }
  }
  return true;
}

// The plain layout, 44 em across, as the decode scene (a laptop's box then gives the state words 15 px
// per em): the devices in a row, each box with its outputs so far, the work grid under them.
void AddPlain(Scene& sc, const RingSceneState& s, const Palette& pal) {
  const int P = static_cast<int>(s.devs.size());
  constexpr float kW = 44, kLink = 3.0f, kDevY = 2.3f, kDevH = 7.0f;
  const float dev_w = (kW - 0.8f - kLink * static_cast<float>(P)) / static_cast<float>(P);
  const std::string bytes = FormatBytes(s.run->bytes_per_link_per_step);
  sc.texts.push_back({"ring.title", 0.5f, 0.2f, 0.9f, pal.text, UiText(Str::ring_devices_title, s.lang)});
  for (int d = 0; d < P; ++d) {
    const float x = 0.8f + (dev_w + kLink) * static_cast<float>(d);
    const std::string D = std::to_string(d + 1);
    const RingDeviceBox& v = s.devs[static_cast<size_t>(d)];
    sc.rects.push_back(TileRect("device." + D, x, kDevY, dev_w, kDevH, v.state, pal, v.name + "\n" + v.rows + "\n" + v.holds + "\nO: " + v.outputs, v.sub));
    // While sending, the bytes on the link are its key number: they lead, in the label's large line.
    std::string link = "\u2192 " + std::to_string((d + 1) % P + 1);
    if (s.send) link = bytes + "\n" + link;
    sc.rects.push_back(TileRect("link." + D, x + dev_w + 0.3f, kDevY + 2.0f, kLink - 0.6f, 3.0f, s.send ? TileState::kInSram : TileState::kNone, pal,
                                link, ""));
    if (!s.send) sc.rects.back().fill = pal.background;
  }
  // The work grid: pairs computed by each device at each step; idle cells hatched.
  const float grid_y = kDevY + kDevH + 2.4f, label_w = 5.6f, cell_h = 2.6f;
  const float cell_w = (kW - 0.8f - label_w) / static_cast<float>(P);
  sc.texts.push_back({"ring.grid.title", 0.5f, grid_y - 2.0f, 0.9f, pal.text, UiText(Str::ring_grid_title, s.lang)});
  for (int d = 0; d < P; ++d) {
    const float y = grid_y + (cell_h + 0.2f) * static_cast<float>(d);
    sc.texts.push_back({"ring.grid.device." + std::to_string(d + 1), 0.5f, y + 0.3f, 0.85f, pal.text_muted, s.devs[static_cast<size_t>(d)].name});
    for (int t = 0; t < P; ++t) {
      const auto& ds = s.run->steps[static_cast<size_t>(t)].devices[static_cast<size_t>(d)];
      sc.rects.push_back(TileRect("work." + std::to_string(d + 1) + "." + std::to_string(t + 1), 0.8f + label_w + cell_w * static_cast<float>(t), y,
                                  cell_w - 0.3f, cell_h, CellState(s, d, t), pal, t < s.k ? FormatInt(ds.pairs) : "", ""));  // the painter adds the state's symbol
    }
  }
  sc.width = kW;
  sc.height = grid_y + (cell_h + 0.2f) * static_cast<float>(P) + 0.6f;
}

}  // namespace

Scene BuildRingScene(const RingSceneState& s, const Palette& pal, const SceneFrame& frame) {
  Scene sc;
  sc.background = pal.background;
  if (!AddFloors(sc, s, pal, frame)) AddPlain(sc, s, pal);
  return sc;
}

}  // namespace bw::view
