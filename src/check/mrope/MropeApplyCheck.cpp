// posenc check --apply for multimodal RoPE (docs/ARCHITECTURE.md, Checking a rotation). The
// references: huggingface/transformers models/qwen2_vl/modeling_qwen2_vl.py
// (apply_multimodal_rotary_pos_emb: cos.split(mrope_section * 2), chunk i from axis i % 3;
// get_rope_index; compute_3d_position_ids: decode ids = cache position + rope_deltas on all three
// axes) and models/qwen3_vl/modeling_qwen3_vl.py (apply_interleaved_mrope: freqs_t[..., 1:3 s_h:3]
// from h, [..., 2:3 s_w:3] from w).
#include "check/mrope/MropeApplyCheck.h"

#include "check/mrope/MropeApplyIds.h"
#include "check/rope/ApplyNotTurned.h"
#include "check/rope/ApplyPairs.h"
#include "core/ThreadPools.h"
#include "core/mrope/MropeRotation.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::MropeApplyCheck {

namespace {

using ApplyPairs::AxisPairs;
using ApplyPairs::Geometry;

constexpr std::int64_t kMropeTileRows = 4096;

// A split of the rotary pairs between the axes: mrope_section, chunked or interleaved.
struct Split
{
    std::vector<std::int64_t> section;
    bool interleaved = false;
};

QString splitText(const Split &s)
{
    return MropeMistakes::splitWords(s.section, s.interleaved);
}

// The declared split first, then the other mode, then the section's other orders: the splits a
// rotation may have used.
std::vector<Split> splitsToTry(const MropeParams &declared, std::int64_t pairs)
{
    std::vector<Split> splits {{declared.section, declared.interleaved}};
    const auto add = [&](const Split &s) {
        MropeParams m = declared;
        m.section = s.section;
        m.interleaved = s.interleaved;
        if (MropeAxes::sectionProblem(m, pairs))
            return;
        const auto same = [&](const Split &o) {
            MropeParams other = declared;
            other.section = o.section;
            other.interleaved = o.interleaved;
            return MropeAxes::axes(other, pairs) == MropeAxes::axes(m, pairs);
        };
        if (std::none_of(splits.begin(), splits.end(), same))
            splits.push_back(s);
    };
    add({declared.section, !declared.interleaved});
    std::vector<std::int64_t> order = declared.section;
    std::sort(order.begin(), order.end());
    do {
        add({order, declared.interleaved});
    } while (std::next_permutation(order.begin(), order.end()));
    return splits;
}

// What reads a row's ids: the pairing, the frequencies and which axis each pair takes.
struct Reader
{
    const RowMatrixXf &x;
    const RowMatrixXf &y;
    Geometry geometry;
    double u = 0x1p-24;
    double factor = 1.0;
    std::vector<double> inv;
    std::vector<int> axisOf;
    std::array<AxisPairs, 3> axes;
    std::int64_t maxId = 0;

    void take(const Split &s)
    {
        MropeParams m;
        m.section = s.section;
        m.interleaved = s.interleaved;
        axisOf = MropeAxes::axes(m, std::ssize(inv));
        for (int a = 0; a < 3; ++a) {
            std::vector<bool> mine(inv.size());
            for (std::size_t k = 0; k < inv.size(); ++k)
                mine[k] = axisOf[k] == a;
            axes[std::size_t(a)] = AxisPairs::of(inv, mine);
        }
    }
};

std::int64_t &axisId(RowIds &ids, int axis)
{
    return axis == 0 ? ids.t : axis == 1 ? ids.h : ids.w;
}

std::int64_t axisId(const RowIds &ids, int axis)
{
    return axis == 0 ? ids.t : axis == 1 ? ids.h : ids.w;
}

bool allRead(const RowIds &ids, const Reader &reader)
{
    for (int a = 0; a < 3; ++a) {
        if (!reader.axes[std::size_t(a)].pairs.empty() && axisId(ids, a) < 0)
            return false;
    }
    return true;
}

// Row p's ids: each axis from its own pairs, the row before's ids, their successors, the ids read
// of this row's other axes and the row's index tried first. An axis without pairs takes the
// largest id of the others.
RowIds readRow(const Reader &reader, std::int64_t p, const RowIds &before, std::vector<double> &angle,
               std::vector<double> &unc)
{
    ApplyPairs::rowAngles(reader.x, reader.y, p, reader.geometry, reader.u, angle.data(), nullptr, unc.data());
    RowIds ids;
    std::vector<std::int64_t> hints {before.w, before.w + 1, before.h, before.h + 1, before.t, before.t + 1};
    const std::int64_t top = std::max({before.t, before.h, before.w});
    hints.push_back(top + 1);
    hints.push_back(p);
    for (const int a : {2, 1, 0}) {
        const AxisPairs &axis = reader.axes[std::size_t(a)];
        if (axis.pairs.empty())
            continue;
        const std::int64_t id = ApplyPairs::readId(axis, angle.data(), unc.data(), reader.u, hints, reader.maxId);
        axisId(ids, a) = id;
        if (id >= 0)
            hints.insert(hints.begin(), id);
    }
    for (int a = 0; a < 3; ++a) {
        if (reader.axes[std::size_t(a)].pairs.empty())
            axisId(ids, a) = std::max({ids.t, ids.h, ids.w});
    }
    return ids;
}

// Every row's ids under the reader's split, in tiles; the rows whose every axis was read.
std::int64_t readAll(const Reader &reader, std::vector<RowIds> &ids, int threads)
{
    const std::int64_t rows = reader.x.rows(), tiles = (rows + kMropeTileRows - 1) / kMropeTileRows;
    std::atomic<std::int64_t> read {0};
    forEachTile(tiles, threads, nullptr, [&](std::int64_t t) {
        std::vector<double> angle(static_cast<std::size_t>(reader.geometry.pairs())), unc(angle.size());
        RowIds before;
        std::int64_t mine = 0;
        for (std::int64_t p = t * kMropeTileRows; p < std::min(rows, (t + 1) * kMropeTileRows); ++p) {
            ids[std::size_t(p)] = readRow(reader, p, before, angle, unc);
            before = ids[std::size_t(p)];
            mine += allRead(before, reader);
        }
        read += mine;
    });
    return read;
}

// Y against X turned at the ids read, the cells beyond float32's rounding counted.
ApplyPairs::CellTally compareCells(const Result &result, const Reader &reader, int threads)
{
    return ApplyPairs::tallyTiles(reader.x.rows(), kMropeTileRows, threads,
                                  [&](std::int64_t first, std::int64_t end, ApplyPairs::CellTally &tally) {
                                      std::vector<double> angle(reader.inv.size());
                                      for (std::int64_t p = first; p < end; ++p) {
                                          const RowIds &ids = result.ids[std::size_t(p)];
                                          for (std::size_t k = 0; k < angle.size(); ++k) {
                                              const std::int64_t id = axisId(ids, reader.axisOf[k]);
                                              angle[k] = id < 0 ? std::numeric_limits<double>::quiet_NaN()
                                                                : double(id) * reader.inv[k];
                                          }
                                          tally.add(p,
                                                    ApplyPairs::compareRow(reader.x, reader.y, p, reader.geometry,
                                                                           reader.factor, angle.data(), reader.u));
                                      }
                                  });
}

// The split that explains the most rows (the declared one unless another explains more), its
// ids read into the result.
Split chooseSplit(Result &result, Reader &reader, const MropeParams &declared, int threads)
{
    const std::vector<Split> splits = splitsToTry(declared, std::ssize(reader.inv));
    const std::int64_t rows = reader.x.rows();
    std::int64_t bestRead = -1;
    Split best = splits.front();
    std::vector<RowIds> ids(static_cast<std::size_t>(rows));
    for (const Split &split : splits) {
        reader.take(split);
        const std::int64_t read = readAll(reader, ids, threads);
        if (read > bestRead) {
            bestRead = read;
            best = split;
            result.ids = ids;
        }
        if (read == rows)
            break;
    }
    reader.take(best);
    return best;
}

// The split found against the declared one: the mode, the section's order.
void splitLines(Result &result, const Split &found, const MropeParams &declared, QStringList &lines)
{
    if (found.interleaved != declared.interleaved) {
        result.mistakes.append(MropeMistakes::kInterleaveSwapped);
        lines.append(u"%1: the rotation's h and w pairs are not the model's"_s.arg(
            MropeMistakes::interleaveSwappedLine(found.interleaved)));
    }
    if (found.section != declared.section) {
        result.mistakes.append(MropeMistakes::kAxesSwapped);
        lines.append(u"the pairs follow mrope_section %1, not the %2 declared: the axes' sections are exchanged"_s.arg(
            MropeMistakes::sectionText(found.section), MropeMistakes::sectionText(declared.section)));
    }
}

// The verdict from the mistakes, the cells and whether the ids were compared with a reference.
void conclude(Result &result, const Declared &declared, const QStringList &lines, bool idsChecked)
{
    if (ApplyPairs::concludeMistakes(result, lines, u"the ids read"_s))
        return;
    if (!idsChecked) {
        result.verdict = CheckVerdict::Unknown;
        result.diagnosis = u"Y is X turned by M-RoPE at the ids read, with %1; without --prompt the ids are not "
                           "compared with get_rope_index's, so whether they are the prompt's cannot be told"_s.arg(
                               splitText({result.section, result.interleaved}));
        return;
    }
    result.verdict = CheckVerdict::Correct;
    result.diagnosis = u"Y is X turned by M-RoPE at %1's ids (get_rope_index)%2, with %3, attention factor %4"_s.arg(
        declared.prompt ? u"the prompt"_s : u"positions 0..L-1"_s,
        result.promptTokens < std::ssize(result.ids) && declared.prompt
            ? u" and decode rows at cache position + rope_deltas %1"_s.arg(result.ropeDeltas.value_or(0))
            : QString(),
        splitText({result.section, result.interleaved}), QString::number(result.attentionFactor));
}

} // namespace

std::variant<Result, QString> check(const RowMatrixXf &x, const RowMatrixXf &y, const Declared &declared)
{
    if (const auto problem = ApplyPairs::shapeProblem(x, y))
        return *problem;
    if (x.rows() < 1)
        return u"X has no rows: a row per token is checked"_s;
    if (const auto problem = ApplyPairs::finiteProblem(x, y))
        return *problem;
    const Params &params = declared.params;
    const std::int64_t rotary = RopeFrequencies::rotaryDim(params.rope);
    if (params.rope.headDim != x.cols() || rotary < 2 || rotary > x.cols())
        return u"X has %1 columns; the declared head_dim is %2 (rotary_dim %3)"_s.arg(x.cols())
            .arg(params.rope.headDim)
            .arg(rotary);
    if (const auto problem = MropeAxes::sectionProblem(params.mrope, rotary / 2))
        return u"--mrope-section: "_s + *problem;
    std::optional<IdReference> reference;
    if (declared.prompt) {
        auto built = IdReference::of(params, x.rows());
        if (const auto *problem = std::get_if<QString>(&built))
            return u"--prompt: "_s + *problem;
        reference = std::get<IdReference>(std::move(built));
    }
    Result result;
    // Rows 0 in X and Y say nothing of a rotation (ApplyNotTurned::blankRows): all of them so, unknown, said.
    const std::vector<std::int64_t> blank = ApplyNotTurned::blankRows(x, y);
    if (std::ssize(blank) == x.rows()) {
        ApplyNotTurned::nameAllBlank(result, x.rows());
        return result;
    }
    const double u = ApplyPairs::unitRoundoff(y);
    const auto sample = ApplyNotTurned::withoutBlank(ApplyPairs::sampleRows(x.rows()), blank);
    // No pair turned (held-out set 8's F3): said, and against a declared prompt rope-not-applied.
    if (const auto scale = x.rows() > 1 ? ApplyNotTurned::scaleOf(x, y, sample, u) : std::nullopt) {
        ApplyNotTurned::nameOutcome(
            result, *scale,
            reference ? u"get_rope_index's ids for the declared prompt turn every row after the first"_s : QString());
        return result;
    }
    const ApplyPairs::Reading r = ApplyPairs::bestReading(x, y, sample, 0, rotary);
    if (!ApplyPairs::turnsPairs(r, u)) {
        result.diagnosis = ApplyPairs::notTurned(u"its first %1 columns"_s.arg(rotary));
        return result;
    }
    result.rotation = r.geometry.rotation;
    result.table = r.geometry.table;
    Params rotaryParams = RopeFrequencies::underRope(params);
    rotaryParams.maxLen = std::max<std::int64_t>(reference ? reference->maxId() + 1 : x.rows(), 1);
    const RopeFrequencies::Table table = RopeFrequencies::table(rotaryParams);
    result.attentionFactor = table.attentionFactor;
    Reader reader {x, y, r.geometry, u, table.attentionFactor, table.inv, {}, {}, 0};
    reader.maxId = std::min<std::int64_t>(std::max<std::int64_t>(8 * x.rows(), 4096), MropePrompt::kMaxId);
    if (reference)
        reader.maxId = std::max(reader.maxId, 2 * (reference->maxId() + 1));
    const Split split = chooseSplit(result, reader, params.mrope, declared.threads);
    result.section = split.section;
    result.interleaved = split.interleaved;
    QStringList lines;
    ApplyPairs::layoutMistakes(result, params.rope.layout, lines);
    splitLines(result, split, params.mrope, lines);
    static_cast<ApplyPairs::CellTally &>(result) = compareCells(result, reader, declared.threads);
    bool idsChecked = false;
    if (reference) {
        result.promptTokens = reference->tokens();
        result.ropeDeltas = reference->ropeDeltas();
        idsChecked = reference->compare(result, lines);
    } else {
        idsChecked = IdReference::textFromZero(result, lines);
    }
    result.reference = splitText(split);
    conclude(result, declared, lines, idsChecked);
    return result;
}

} // namespace posenc::MropeApplyCheck
