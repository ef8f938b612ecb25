// posenc check --apply (docs/ARCHITECTURE.md, Checking a rotation). The references are HF's
// modeling_llama.py (rotate_half, apply_rotary_pos_emb), modeling_gpt_neox.py's and
// modeling_phi.py's partial rotary (q_rot = q[..., :rotary_dim], q_pass = q[..., rotary_dim:],
// cat([q_embed, q_pass])), modeling_rope_utils.py's _compute_default_rope_parameters (dim =
// int(head_dim * partial_rotary_factor), inv_freq = 1 / base^(arange(0, dim, 2) / dim)) and GPT-J's
// modeling_gptj.py (rotate_every_two); ApplyPairs reads the pairs.
#include "check/rope/ApplyCheck.h"

#include "check/FamilyCheck.h"
#include "check/FitNumbers.h"
#include "check/TableCheck.h"
#include "check/TableRows.h"
#include "check/rope/ApplyAfterCache.h"
#include "check/rope/ApplyAngles.h"
#include "check/rope/ApplyColumns.h"
#include "check/rope/ApplyDeclaredAngles.h"
#include "check/rope/ApplyFewRows.h"
#include "check/rope/ApplyIds.h"
#include "check/rope/ApplyLengths.h"
#include "check/rope/ApplyNotTurned.h"
#include "check/rope/ApplyOneFrequency.h"
#include "check/rope/ApplyOnePosition.h"
#include "check/rope/ApplyPairs.h"
#include "check/rope/ApplyReference.h"
#include "check/rope/ApplySpan.h"
#include "check/rope/ApplyTwice.h"
#include "check/rope/RopeCheckWords.h"
#include "check/rope/RopeFrequencyMistakes.h"
#include "check/rope/RopeTableCheck.h"
#include "core/FamilySpec.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

using namespace Qt::StringLiterals;

namespace posenc::ApplyCheck {

namespace {

using ApplyPairs::Geometry;
using ApplyPairs::Reading;
using ApplySpan::Placement;
using ApplySpan::Span;
using ApplySpan::spanOf;

constexpr std::int64_t kTileRows = 8192;

// What a tile of rows gives: each row's position, and Y against X turned at it.
struct Work
{
    const RowMatrixXf &x;
    const RowMatrixXf &y;
    Geometry geometry;
    double factor = 1.0; // the attention factor the cells are compared with
    FrequencySchedule schedule;
    ApplyPairs::AxisPairs axis;
    double u = 0x1p-24;
    std::int64_t maxId = 0;
    double direction = 1.0; // -1: Y turns X by -angle (rotation-reversed)
    const std::vector<std::int64_t> *ids = nullptr; // --position-ids: row p's position; else p
    // With the reference and the ids declared, a row whose position is not read is compared at its id
    // (its cells then say how far it is), as a decode step's rows are (ApplyFewRows).
    bool unreadAtIds = false;
    const std::vector<bool> *blank
        = nullptr; // rows 0 in X and Y (ApplyNotTurned::blankRows): no evidence, not compared

    // The position row p is meant to be at.
    std::int64_t meant(std::int64_t p) const { return ids ? (*ids)[std::size_t(p)] : p; }
};

// Row p's angles as the rotation turns them: negated where it turns the wrong way, so that a row
// reads as the position it was turned at.
void anglesOf(const Work &w, std::int64_t p, std::vector<double> &angle, std::vector<double> &unc)
{
    ApplyPairs::rowAngles(w.x, w.y, p, w.geometry, w.u, angle.data(), nullptr, unc.data());
    if (w.direction < 0.0) {
        for (double &a : angle)
            a = -a;
    }
}

// Whether Y turns X the wrong way: more sampled rows read as a position from their angles negated
// than as they are. The cos table the frequencies are identified from is the same either way.
bool turnsBackward(const Work &w, const std::vector<std::int64_t> &sample)
{
    std::int64_t forward = 0, backward = 0;
    std::vector<double> angle(static_cast<std::size_t>(w.geometry.pairs())), unc(angle.size());
    for (const std::int64_t p : sample) {
        ApplyPairs::rowAngles(w.x, w.y, p, w.geometry, w.u, angle.data(), nullptr, unc.data());
        forward += ApplyPairs::readId(w.axis, angle.data(), unc.data(), w.u, {w.meant(p)}, w.maxId) >= 0;
        for (double &a : angle)
            a = -a;
        backward += ApplyPairs::readId(w.axis, angle.data(), unc.data(), w.u, {w.meant(p)}, w.maxId) >= 0;
    }
    return backward > forward;
}

// Row p against X turned at `at` with the frequencies found; a row whose position was not read
// deviates.
void compareAt(const Work &w, std::int64_t p, std::int64_t at, std::vector<double> &angle, ApplyPairs::CellTally &tally)
{
    if (at < 0) {
        ++tally.deviatingRows;
        return;
    }
    for (std::size_t k = 0; k < angle.size(); ++k)
        angle[k] = k < w.schedule.w.size() ? w.direction * double(at) * w.schedule.w[k] : 0.0;
    tally.add(p, ApplyPairs::compareRow(w.x, w.y, p, w.geometry, w.factor, angle.data(), w.u));
}

// Every row's position, read in tiles on the thread pool (each tile's first row searched, the
// others first tried at the row before's successor), and the cells compared.
ApplyPairs::CellTally readRows(const Work &w, std::vector<std::int64_t> &positions, int threads)
{
    return ApplyPairs::tallyTiles(
        w.x.rows(), kTileRows, threads, [&](std::int64_t first, std::int64_t end, ApplyPairs::CellTally &tally) {
            std::vector<double> angle(static_cast<std::size_t>(w.geometry.pairs())), unc(angle.size());
            std::int64_t previous = -1;
            for (std::int64_t p = first; p < end; ++p) {
                if (w.blank && (*w.blank)[std::size_t(p)]) {
                    positions[std::size_t(p)] = -1;
                    previous = previous < 0 ? -1 : previous + 1;
                    continue;
                }
                anglesOf(w, p, angle, unc);
                const std::int64_t next = previous < 0 ? -1 : previous + 1;
                const std::vector<std::int64_t> hints = w.ids ? std::vector {w.meant(p), next} : std::vector {next, p};
                const std::int64_t at = ApplyPairs::readId(w.axis, angle.data(), unc.data(), w.u, hints, w.maxId);
                positions[std::size_t(p)] = at;
                previous = at;
                compareAt(w, p, at < 0 && w.unreadAtIds ? w.meant(p) : at, angle, tally);
            }
        });
}

// "rope_type default (rope_theta 10000), attention factor 1": the angles' table and its layout
// ("rope-cos, half layout") are this check's own.
QString frequencyWords(const Result &result)
{
    RopeFit::Hypothesis words;
    words.params = *result.params;
    words.amplitude = result.attentionFactor;
    return RopeCheckWords::reference(words).section(u", "_s, 2);
}

// The sampled rows that the frequencies of `params` explain: a position read, every cell within
// rounding of X turned at it.
std::int64_t explainedRows(const Work &base, const Params &params, const std::vector<std::int64_t> &sample)
{
    Work w = base;
    w.schedule = RopeFrequencies::schedule(params);
    w.axis = ApplyPairs::AxisPairs::of(w.schedule.w, std::vector<bool>(w.schedule.w.size(), true));
    std::int64_t explained = 0;
    std::vector<double> angle(static_cast<std::size_t>(w.geometry.pairs())), unc(angle.size());
    for (const std::int64_t p : sample) {
        anglesOf(w, p, angle, unc);
        const std::int64_t at = ApplyPairs::readId(w.axis, angle.data(), unc.data(), w.u, {w.meant(p)}, w.maxId);
        ApplyPairs::CellTally tally;
        compareAt(w, p, at, angle, tally);
        explained += at >= 0 && tally.deviatingRows == 0;
    }
    return explained;
}

// A head whose last pairs move no value of Y: proportional's pairs at frequency 0, or the default
// type's slowest, which the angles (each within its uncertainty) cannot tell apart at a half
// precision; the cells can. Proportional's reading, its live pairs those before the still ones, is
// kept where it explains more sampled rows than the default type's.
void preferProportional(Result &result, Work &work, const std::vector<bool> &pass,
                        const std::vector<std::int64_t> &sample)
{
    const std::int64_t d = result.headDim, h = d / 2;
    if (!result.params || result.params->rope.type != RopeType::Default || result.rotaryDim != d
        || work.geometry.rotation != RopeLayout::Half || std::ssize(pass) != d)
        return;
    std::int64_t live = h;
    while (live > 0 && pass[std::size_t(live - 1)] && pass[std::size_t(live - 1 + h)])
        --live;
    if (live == h || live == 0)
        return;
    Params proportional = *result.params;
    proportional.rope.type = RopeType::Proportional;
    proportional.rope.headDim = d;
    proportional.rope.partialRotaryFactor = RopeFrequencies::factorForLivePairs(proportional.rope, live);
    if (explainedRows(work, proportional, sample) <= explainedRows(work, *result.params, sample))
        return;
    result.params = proportional;
    result.correctAgainst.clear();
    work.schedule = RopeFrequencies::schedule(proportional);
    work.axis = ApplyPairs::AxisPairs::of(work.schedule.w, std::vector<bool>(work.schedule.w.size(), true));
    result.frequencies = frequencyWords(result);
}

// The parameters the identification fitted (rope_theta, factor) rounded to the fewest significant
// digits that explain as many sampled rows as they do: the digits the data pins, no more
// (llama3's factor 1, not 1.0000340241274595). The frequencies compared are the rounded ones.
void pinParameters(Result &result, Work &work, const std::vector<std::int64_t> &sample)
{
    Params &params = *result.params;
    const std::int64_t most = explainedRows(work, params, sample);
    const auto pin = [&](double &value) {
        const double fitted = value;
        for (const double rounded : FitNumbers::roundings(fitted, 15)) {
            value = rounded;
            if (explainedRows(work, params, sample) >= most)
                return;
        }
        value = fitted;
    };
    pin(params.rope.theta);
    if (params.rope.factor)
        pin(*params.rope.factor);
    work.schedule = RopeFrequencies::schedule(params);
    work.axis = ApplyPairs::AxisPairs::of(work.schedule.w, std::vector<bool>(work.schedule.w.size(), true));
    result.frequencies = frequencyWords(result);
}

// The frequencies of the angles, identified as a RoPE cos table; false, with the diagnosis,
// where they are none.
bool identifyFrequencies(Result &result, const AnglesRows &angles, const Reading &r)
{
    TableCheck::Declared asRope;
    asRope.family = Encoding::Rope;
    asRope.keys = {u"rope-layout"_s};
    asRope.params.rope.layout = RopeLayout::Half;
    auto identified = TableCheck::identify(angles, asRope);
    const TableMatch *m = std::get_if<TableMatch>(&identified);
    // Angles formed in half precision read at their slow pairs' base: the exact RoPE there places no
    // row past the rounding, so no frequencies are read (the reference declared names the stages).
    const bool half = m && m->mistakes.contains(CheckMistakes::kHalfPrecisionAngles);
    if (!m || !m->params || m->family != Encoding::Rope || half) {
        result.halfAnglesRead = half ? m->diagnosis : QString();
        result.diagnosis = u"Y is X turned pair by pair (%1 pairs), but its angles are no RoPE frequencies at "
                           "positions the check can read"_s.arg(
                               r.geometry.rotation == RopeLayout::Half ? u"half"_s : u"interleaved"_s);
        result.notes.append(u"the angles as a RoPE cos table: "_s + (m ? m->diagnosis : std::get<QString>(identified)));
        if (!half)
            result.notes.append(u"a multimodal RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL) turns each pair by the id of "
                                "its axis, t, h or w, so its image and video rows are at no single position: "
                                "declared as M-RoPE, the check reads each row's three ids"_s);
        return false;
    }
    // The attention factor as the identification reads it (the type's, where the median is within
    // its rounding): the reference the cells are compared with.
    const MatchValue factor = m->finding(u"attention_factor"_s);
    if (const auto *read = std::get_if<double>(&factor))
        result.attentionFactor = *read;
    // A published form's parameters may be a wider head's partial rotary (GPT-J 6B's 64 of 256):
    // the angles' are a head of their own width, every column turned.
    result.params = m->params;
    result.params->rope.layout = r.geometry.table;
    if (result.params->rope.type != RopeType::Proportional) {
        result.params->rope.headDim = r.geometry.width;
        result.params->rope.partialRotaryFactor = 1.0;
    }
    result.frequencies = frequencyWords(result);
    // A published form's frequencies at another pairing than its own are none of its forms
    // (optimum-intel#1877: DeepSeek-V3's interleaved q turned by rotate_half).
    result.correctAgainst = m->correctAgainst.isEmpty()
        ? QString()
        : ApplyColumns::publishedAt(*result.params, result.attentionFactor, r.geometry.rotation, false);
    // Rows away from 0 (at --position-ids 5..20) read as a table at an offset, which is no published
    // table; the positions are the rows' own reading, and the frequencies still a published form's.
    const bool onlyPositions = std::all_of(m->mistakes.begin(), m->mistakes.end(), [](const QString &id) {
        return id == CheckMistakes::kPositionOffset || id == kPositionsOutOfOrder;
    });
    if (result.correctAgainst.isEmpty() && !m->mistakes.isEmpty() && onlyPositions) {
        result.correctAgainst
            = ApplyColumns::publishedAt(*result.params, result.attentionFactor, r.geometry.rotation, false);
    }
    // The positions are the rows' own reading (positionLines), not the angle table's.
    for (const QString &mistake : m->mistakes) {
        if (mistake != CheckMistakes::kPositionOffset && mistake != kPositionsOutOfOrder)
            result.mistakes.append(mistake);
    }
    return true;
}

// The attention factor the identification took (the type's, where the amplitude is within four
// of a cell's roundings of it: 2^-6 in bfloat16) against the median amplitude of the sampled
// pairs, known closer: to the format's rounding `u` of cos * attention_scaling, which HF casts to
// q's dtype (bfloat16 rounds yarn's 1.34657 to 1.34375 at every slow pair), and to the median's
// own error. A factor beyond both (c * RoPE(X), c = 1.01 in bfloat16) is the rotation's own, which
// no published form has.
void keepAmplitude(Result &result, const Reading &r, double u)
{
    const double within = r.factorUncertainty() + u;
    const double taken = result.attentionFactor;
    if (!(std::fabs(r.factor / taken - 1.0) > within))
        return;
    result.attentionFactor = r.factor;
    for (const double rounded : FitNumbers::roundings(r.factor, 15)) {
        if (std::fabs(rounded / r.factor - 1.0) <= within) {
            result.attentionFactor = rounded;
            break;
        }
    }
    result.correctAgainst.clear();
    result.frequencies = frequencyWords(result);
    result.notes.append(u"the amplitude of the rotation, the median of %1 pairs' (to a part in %2), is %3, not the "
                        "attention factor %4, which one cell's rounding alone would allow"_s.arg(r.count)
                            .arg(std::round(1.0 / within))
                            .arg(result.attentionFactor)
                            .arg(taken));
}

// The frequencies identified from the rows in position order (--position-ids), else as they come;
// `relative`: else from the angles less a row's (rows after a cache), where they place the rows; not
// with the reference and the ids declared, where rows no table reads are compared at their ids
// (unidentified), which names a row off its id.
bool identifyAt(Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const Reading &r, double u,
                const std::vector<std::int64_t> &ids, bool relative)
{
    for (const std::vector<std::int64_t> &rows : rowsByPosition(ids)) {
        RowMatrixXf xs(std::ssize(rows), x.cols()), ys(std::ssize(rows), y.cols());
        for (std::size_t p = 0; p < rows.size(); ++p) {
            xs.row(std::int64_t(p)) = x.row(rows[p]);
            ys.row(std::int64_t(p)) = y.row(rows[p]);
        }
        Result tried = result;
        if (identifyFrequencies(tried, AnglesRows(xs, ys, r, u), r)) {
            result = std::move(tried);
            return true;
        }
    }
    Result asGiven = result;
    if (identifyFrequencies(asGiven, AnglesRows(x, y, r, u), r)) {
        result = std::move(asGiven);
        return true;
    }
    if (!asGiven.halfAnglesRead.isEmpty()) { // read as angles formed in half precision at rows' index
        result = std::move(asGiven);
        return false;
    }
    // Rows after a cache (a decode step's, a later chunk's, at p0..p0+n-1): their angles less the
    // first told row's are a table at 0..n-1, read at any p0; each row's own position is read after.
    const auto origin = relative ? ApplyAfterCache::firstToldRow(x, y, r, u) : std::nullopt;
    if (origin) {
        Result relative = result;
        const AnglesRows angles(x, y, r, u, *origin);
        if (identifyFrequencies(relative, angles, r) && ApplyAfterCache::placesMostRows(relative, x, y, r, u)) {
            result = std::move(relative);
            return true;
        }
        // Of rows whose positions restart (each chunk's from p0), the first run a position apart.
        const std::int64_t run = ApplyAfterCache::leadingRun(x, y, r, u, *origin);
        if (run >= ApplyFewRows::kRows && *origin + run < x.rows()) {
            const RowMatrixXf xs = x.middleRows(*origin, run), ys = y.middleRows(*origin, run);
            relative = result;
            if (identifyFrequencies(relative, AnglesRows(xs, ys, r, u, 0), r)
                && ApplyAfterCache::placesMostRows(relative, x, y, r, u)) {
                result = std::move(relative);
                return true;
            }
        }
    }
    result = std::move(asGiven);
    return false;
}

// A partial rotary's parameters: the head's width, partial_rotary_factor r / d (nudged up where
// int(d * r / d) would fall short of r).
void asPartial(Params &params, std::int64_t headDim, std::int64_t rotaryDim)
{
    params.rope.headDim = headDim;
    params.rope.partialRotaryFactor = double(rotaryDim) / double(headDim);
    while (RopeFrequencies::rotaryDim(params.rope) < rotaryDim)
        params.rope.partialRotaryFactor = std::nextafter(params.rope.partialRotaryFactor, 2.0);
}

// A partial rotary's last pairs that move no value of Y, read with the frequencies: said in a note.
void slowPairsNote(Result &result, const Span &span, const std::vector<bool> &pass, double u)
{
    if (span.placement != Placement::First)
        return;
    const std::int64_t h = span.width / 2;
    std::int64_t k = 0;
    while (k < h && !(pass[std::size_t(k)] && pass[std::size_t(k + h)]))
        ++k;
    if (k < h)
        result.notes.append(u"pairs %1..%2 of the rotated part move no value beyond Y's rounding (2^%3 relative) "
                            "at these rows: their angles are too small for its format to show, so they are read "
                            "with the frequencies, not as columns passed through"_s.arg(k)
                                .arg(h - 1)
                                .arg(std::ilogb(u)));
}

// Rows whose frequencies no search read from them: every row at one position, every pair at one
// frequency; with the reference and each row's position declared, every row compared at its id as
// a decode step's are (a chunk after a cache, rows at 70.. of which a few tell no frequencies); else
// the declared rotation applied twice, or no reading.
void unidentified(Result &result, const RowMatrixXf &x, const RowMatrixXf &y, const Reading &r, double u,
                  const Declared &declared)
{
    if (ApplyOnePosition::name(result, x, y, r, u, declared))
        return;
    if (ApplyOneFrequency::name(result, x, y, r, u, declared))
        return;
    if (declared.reference && !declared.ids.empty()) {
        Result read;
        read.headDim = result.headDim;
        ApplyFewRows::read(read, x, y, r, u, declared);
        ApplyDeclaredAngles::nameResult(read, x, y, r, u, declared);
        result = std::move(read);
        ApplyLengths::name(result, x, y, r, u, declared);
        return;
    }
    ApplyTwice::name(result, x, y, r, u, declared);
    ApplyDeclaredAngles::nameResult(result, x, y, r, u, declared);
    ApplyLengths::name(result, x, y, r, u, declared); // still unnamed: pairs that change length
    ApplyDeclaredAngles::nameHalfRead(result, declared);
}

std::variant<Result, QString> checkAsGiven(const RowMatrixXf &x, const RowMatrixXf &y, const Declared &declared)
{
    if (const auto problem = ApplyPairs::shapeProblem(x, y))
        return *problem;
    if (x.cols() < 2 || x.cols() % 2 != 0)
        return u"X has %1 columns: a head's RoPE turns pairs of columns, so head_dim is even and >= 2"_s.arg(x.cols());
    if (const auto problem = ApplyPairs::finiteProblem(x, y))
        return *problem;
    const std::vector<std::int64_t> &ids = declared.ids;
    Result result;
    result.headDim = x.cols();
    result.precision = ApplyPairs::precisionOf(y, declared.stored);
    const double u = halfUnit(result.precision->format);
    // Rows 0 in X and Y say nothing of a rotation: every row so is unknown, some left out of the reading.
    const std::vector<std::int64_t> blank = ApplyNotTurned::blankRows(x, y);
    if (std::ssize(blank) == x.rows()) {
        ApplyNotTurned::nameAllBlank(result, x.rows());
        return result;
    }
    const std::vector<bool> blankMask = ApplyNotTurned::blankMask(blank, x.rows());
    const std::vector<std::int64_t> sample = ApplyNotTurned::withoutBlank(ApplyPairs::sampleRows(x.rows()), blank);
    const std::vector<bool> pass = ApplyPairs::passColumns(x, y, sample, u);
    Span span = spanOf(pass);
    if (!ids.empty() && std::ssize(ids) != x.rows())
        return u"--position-ids holds %1 ids; X has %2 rows, one id a row"_s.arg(std::ssize(ids)).arg(x.rows());
    if (ApplyLengths::nameSignLost(result, x, y, u, declared))
        return result;
    if (const auto scale // no pair turned: Y is X, or X times one factor (the attention factor at 0)
        = span.placement == Placement::None ? std::optional(1.0) : ApplyNotTurned::scaleOf(x, y, sample, u)) {
        ApplyNotTurned::name(result, *scale, x.rows(), declared);
        return result;
    }
    // Rows left unturned among turned ones (their rotation dropped): frequencies read from the others.
    const std::vector<std::int64_t> still = ApplyNotTurned::stillRows(x, y, u, ids);
    const std::vector<std::int64_t> zero = ApplyNotTurned::zeroRows(x, y);
    std::vector<std::int64_t> aside = still;
    aside.insert(aside.end(), zero.begin(), zero.end());
    aside.insert(aside.end(), blank.begin(), blank.end());
    std::sort(aside.begin(), aside.end());
    const std::vector<std::int64_t> identifyIds = ApplyNotTurned::withoutRows(aside, x.rows(), ids);
    // Y's columns written back in another order than the rotation's: named, and read put back.
    const auto putBack = [&](const ApplyColumns::Permuted &put) {
        Declared again = declared;
        again.undoColumns = false;
        auto checked = check(x, put.y, again);
        if (auto *found = std::get_if<Result>(&checked))
            ApplyColumns::judge(*found, put, declared);
        return checked;
    };
    Reading r = ApplyPairs::bestReading(x, y, sample, span.col0, span.width);
    if (!ApplyPairs::turnsPairs(r, u) && span.placement != Placement::Whole) {
        // A partial rotary's, within its rotated columns (those that do not pass).
        const bool partial = span.placement == Placement::First || span.placement == Placement::Last;
        if (partial && declared.undoColumns) {
            if (auto put = ApplyColumns::undo(x, y, sample, u, span.col0, span.width))
                return putBack(*put);
        }
        span = {Placement::Scattered, 0, x.cols()};
        r = ApplyPairs::bestReading(x, y, sample, 0, x.cols());
    }
    if (!ApplyPairs::turnsPairs(r, u)) {
        if (auto put = declared.undoColumns ? ApplyColumns::undo(x, y, sample, u, 0, x.cols()) : std::nullopt)
            return putBack(*put);
        ApplyLengths::nameNoRotation(result, x, y, sample, u, declared); // no rotation, or Y all 0
        return result;
    }
    if (x.rows() < ApplyFewRows::kRows) {
        ApplyFewRows::read(result, x, y, r, u, declared);
        return result;
    }
    result.rotation = r.geometry.rotation;
    result.table = r.geometry.table;
    result.attentionFactor = r.factor;
    result.rotaryStart = span.col0;
    result.rotaryDim = span.width;
    slowPairsNote(result, span, pass, u);
    if (!identifyAt(result, x, y, r, u, identifyIds.empty() ? ids : identifyIds, !declared.reference || ids.empty())) {
        unidentified(result, x, y, r, u, declared);
        return result;
    }
    keepAmplitude(result, r, u);
    const FrequencySchedule schedule = RopeFrequencies::schedule(*result.params);
    Work work {x, y, r.geometry, result.attentionFactor, schedule, {}, u, 0};
    work.ids = ids.empty() ? nullptr : &ids;
    work.unreadAtIds = work.ids && declared.reference;
    work.blank = blankMask.empty() ? nullptr : &blankMask;
    work.axis = ApplyPairs::AxisPairs::of(schedule.w, std::vector<bool>(schedule.w.size(), true));
    work.maxId
        = std::min<std::int64_t>(std::max<std::int64_t>(std::int64_t(1) << 20, 4 * x.rows()), std::int64_t(1) << 26);
    if (!ids.empty())
        work.maxId = std::max(work.maxId, 2 * *std::max_element(ids.begin(), ids.end()) + 1);
    const bool reversed = turnsBackward(work, sample);
    work.direction = reversed ? -1.0 : 1.0;
    preferProportional(result, work, pass, sample);
    // A published form's frequencies at another pairing than its own (a variant) keep the form's
    // parameters: the rows explain them as well as any rounding (gpt-oss's factor 32 in bfloat16).
    if (result.correctAgainst.isEmpty()
        && RopeTableCheck::publishedNames(*result.params, result.attentionFactor, 1e-3).isEmpty())
        pinParameters(result, work, sample);
    if (result.rotaryDim < result.headDim) {
        asPartial(*result.params, result.headDim, result.rotaryDim);
        result.frequencies += u", rotary_dim %1 of head_dim %2"_s.arg(result.rotaryDim).arg(result.headDim);
    }
    QStringList lines = ApplySpan::partialLines(result, span, declared);
    if (declared.reference) {
        const std::int64_t fitted = explainedRows(work, *result.params, sample);
        const auto explains = [&](const Params &p) { return explainedRows(work, p, sample) >= fitted; };
        const bool explained
            = RopeFrequencies::rotaryDim(declared.reference->rope) == result.rotaryDim && explains(*declared.reference);
        const qsizetype frequencyLine = lines.size(); // compare's first line, the frequencies' where they differ
        ApplyReference::compare(result, *declared.reference, explained, r.factorUncertainty() + u, lines, explains);
        if (result.mistakes.contains(ApplyReference::kFrequencies) && lines.size() > frequencyLine)
            ApplyDeclaredAngles::nameResult(result, x, y, r, u, declared, &lines[frequencyLine]);
        // The rows' positions read with the reference they are said to hold: a declared rope_theta that
        // explains every row also explains it at another position (RoPE applied twice at rope_theta t
        // reads as a linear factor 0.5 at the rows' own positions, and as t at twice them), and the
        // positions said are the declared reference's.
        if (explained && !result.correctAgainst.isEmpty() && result.params->rope != declared.reference->rope) {
            result.params = *declared.reference;
            work.schedule = RopeFrequencies::schedule(*declared.reference);
            work.axis = ApplyPairs::AxisPairs::of(work.schedule.w, std::vector<bool>(work.schedule.w.size(), true));
            result.frequencies = frequencyWords(result);
        }
    }
    std::vector<std::int64_t> positions(static_cast<std::size_t>(x.rows()), -1);
    static_cast<ApplyPairs::CellTally &>(result) = readRows(work, positions, declared.threads);
    if (const QString said = ApplyNotTurned::placeBlank(positions, blank, ids); !said.isEmpty())
        result.notes.append(said);
    result.positions = runsOf(positions);
    // Most rows unread with the frequencies fitted (a yarn rotation applied twice over few rows reads
    // as another rope_type): the declared rotation applied twice, where it explains the angles.
    if (declared.reference && 2 * unreadRows(result) > x.rows()) {
        Result twice = result;
        twice.mistakes.clear();
        ApplyTwice::name(twice, x, y, r, u, declared);
        if (twice.mistakes.contains(RopeFrequencyMistakes::kAppliedTwice)) {
            for (std::size_t k = 0; k < positions.size(); ++k)
                positions[k] = ids.empty() ? std::int64_t(k) : ids[k];
            twice.positions = runsOf(positions);
            return twice;
        }
    }
    // Rows left unturned or zeroed named; the positions' line says the others (the runs reported as read).
    const std::vector<PositionRun> read = result.positions;
    ApplyNotTurned::concludeSetAside(result, declared, {zero, still}, positions, std::move(lines), reversed);
    result.positions = read;
    if (result.verdict == CheckVerdict::Mistake && result.mistakes.isEmpty()) // deviating, unnamed
        ApplyDeclaredAngles::nameReadRows(result, x, y, r, u, declared, positions);
    return result;
}

} // namespace

// Y as given; where its rows read as no position (or its angles as no frequencies), Y turned back a
// quarter, kept where that reads every row as a rotation the wrong way: cos and sin exchanged.
std::variant<Result, QString> check(const RowMatrixXf &x, const RowMatrixXf &y, const Declared &declared)
{
    auto given = checkAsGiven(x, y, declared);
    const Result *read = std::get_if<Result>(&given);
    if (!read || !declared.undoQuarterTurn || read->rotaryDim < 2 || (read->params && 2 * unreadRows(*read) < x.rows())
        || !read->halfAnglesRead.isEmpty())
        return given;
    Declared again = declared;
    again.undoQuarterTurn = false;
    again.quarterTurned = true;
    const RowMatrixXf back
        = ApplyColumns::quarterTurnedBack(y, read->rotation == RopeLayout::Half, read->rotaryStart, read->rotaryDim);
    auto turned = checkAsGiven(x, back, again);
    const Result *t = std::get_if<Result>(&turned);
    if (t && t->mistakes.contains(ApplyColumns::kCosSinSwapped) && !t->positions.empty() && unreadRows(*t) == 0)
        return turned;
    return given;
}

} // namespace posenc::ApplyCheck
