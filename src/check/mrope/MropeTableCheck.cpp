#include "MropeTableCheck.h"

#include "check/DeclaredWords.h"
#include "check/SampleScore.h"
#include "check/mrope/MropeIdsReadBack.h"
#include "check/mrope/MropeMistakes.h"
#include "check/mrope/MropeReferenceParams.h"
#include "check/mrope/MropeTableAxes.h"
#include "check/mrope/MropeTableFit.h"
#include "check/mrope/MropeTableJudge.h"
#include "check/mrope/MropeTableReference.h"
#include "check/mrope/MropeTableWords.h"
#include "core/CountWords.h"
#include "core/NumberText.h"
#include "core/ParamText.h"
#include "core/mrope/MropeRotation.h"
#include "core/rope/RopeFrequencies.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::MropeTableCheck {

namespace {

using MropeIdsReadBack::idsReadBack;
using MropeMistakes::kAxesSwapped;
using MropeMistakes::kInterleaveSwapped;
using MropeMistakes::kRopeDeltasLost;
using MropeMistakes::kTimeTruncated;
using MropeMistakes::sectionText;
using MropeMistakes::truncatedTime;
using MropeMistakes::truncationMoves;
using MropeTableAxes::axisFits;
using MropeTableAxes::columnAxesRead;
using MropeTableAxes::columnAxesWords;
using MropeTableAxes::sectionsRead;
using MropeTableAxes::sectionWords;
using MropeTableJudge::exactTolerance;
using MropeTableJudge::judge;
using MropeTableJudge::Judged;
using MropeTableJudge::setTolerance;
using MropeTableWords::idsNote;
using MropeTableWords::isVision;
using MropeTableWords::mistakeWords;
using MropeTableWords::publishedAs;
using MropeTableWords::readingWords;
using MropeTableWords::referenceWords;

const QString kCos = u"mrope-cos"_s;
// rope_theta other than the declared, RoPE's parameter's key as RoPE's checks name it.
const QString kTheta = u"rope-theta"_s;
// The sin table where the cos is declared, or the reverse: the id the other families give it.
const QString kSinCosSwapped = u"sin-cos-swapped"_s;
const QString kSin = u"mrope-sin"_s;

// The table compared with the ids read from its own sampled rows (`reference`): unknown, since no
// prompt says what they should be; its findings the reading's. The caller says why in its diagnosis.
TableMatch atReadIds(const TableEvidence &e, const MropeTableFit::Reading &r,
                     std::shared_ptr<const MropeSampledReference> reference, const Judged &judged)
{
    TableMatch m;
    m.table = r.cosine ? kCos : kSin;
    m.findings = {{u"mrope_section"_s, sectionText(r.section)},
                  {u"mrope_interleaved"_s, r.interleaved},
                  {u"base"_s, r.theta},
                  {u"rope_deltas"_s, std::monostate()}};
    setTolerance(m, e, r.turns, judged.float32);
    m.reference = std::move(reference);
    m.referenceText = u"M-RoPE, "_s + readingWords(r) + u", at the ids read from the sampled rows"_s;
    m.verdict = CheckVerdict::Unknown;
    return m;
}

std::optional<TableCandidate> fit(const TableEvidence &e)
{
    if (e.infinite || e.sameRow || e.cols() < 6 || e.cols() % 2 != 0 || e.cols() > RopeParams::kMaxHeadDim)
        return std::nullopt;
    const auto reading = MropeTableFit::read(e);
    if (!reading)
        return std::nullopt;
    auto reference
        = std::make_shared<const MropeSampledReference>(reading->turns, reading->cosine, reading->rows, reading->ids);
    const Judged judged = judge(*reference, e, reading->turns);
    const std::int64_t pairs = reading->turns.pairs();
    const QString words = readingWords(*reading);
    TableCandidate c;
    c.compared = judged.score.compared;
    c.bad = judged.bad();
    c.claims = explains(c.compared, c.bad);
    c.residual = judged.score.relativeResidual();
    if (!c.claims) {
        c.nearest = u"nearest M-RoPE table: "_s + words;
        c.unclaimed
            = u"M-RoPE's table of %1 leaves %2 of the sampled cells beyond the tolerance"_s.arg(words).arg(c.bad);
        return c;
    }
    // The ids are the table's own: no prompt says what they should be, so the check cannot tell.
    c.match = atReadIds(e, *reading, reference, judged);
    TableMatch &m = c.match;
    m.diagnosis = u"M-RoPE's %1 table: %2; %3 of the %4 sampled rows are image or video tokens (their t, h and w "
                  "differ), their ids read from the table; with no prompt declared, whether they are get_rope_index's "
                  "cannot be told"_s.arg(reading->cosine ? u"cos"_s : u"sin"_s, words)
                      .arg(reading->visionRows)
                      .arg(reading->rows.size());
    if (c.bad > 0) {
        // Cells no ids explain: wrong whatever the prompt was.
        m.verdict = CheckVerdict::Mistake;
        m.diagnosis += u"; %1 of its sampled cells are no M-RoPE row's at any ids"_s.arg(c.bad);
    }
    m.notes.append(idsNote(e, *reading, judged.float32));
    if (const QString published = publishedAs(reading->section, reading->interleaved, reading->theta, pairs);
        !published.isEmpty())
        m.notes.append(u"the split and rope_theta are "_s + published);
    else
        m.notes.append(u"no model of the presets ships this split and rope_theta"_s);
    m.notes.append(u"only the sampled rows are compared; declare the prompt (the mrope parameters, or a Qwen-VL model "
                   "config and the prompt) to compare every row with get_rope_index's ids"_s);
    return c;
}

TableMatch matchOf(const TableEvidence &e, const Params &p, bool cosine, const Judged &judged,
                   std::shared_ptr<const MropePromptReference> reference)
{
    TableMatch m;
    m.table = cosine ? kCos : kSin;
    m.findings = {{u"mrope_section"_s, sectionText(p.mrope.section)},
                  {u"mrope_interleaved"_s, p.mrope.interleaved},
                  {u"base"_s, p.rope.theta},
                  {u"rope_deltas"_s, reference->layout().ropeDelta()}};
    // A text-only window reads no prompt, so no rope_deltas.
    if (reference->window())
        m.findings[3].value = std::monostate();
    // A row's position is its ids (t, h, w), not its index: no offset or first position row.
    setTolerance(m, e, reference->turns(), judged.float32);
    m.params = p;
    const QString words
        = referenceWords(p, reference->layout(), e.rows(), reference->leftPadding(), reference->rowIds());
    m.referenceText = u"M-RoPE, "_s + words;
    m.verdict = CheckVerdict::Correct;
    m.correctAgainst = publishedAs(p.mrope.section, p.mrope.interleaved, p.rope.theta, RopeFrequencies::pairs(p.rope));
    m.diagnosis = u"M-RoPE's %1 table: %2"_s.arg(cosine ? u"cos"_s : u"sin"_s, words);
    m.reference = std::move(reference);
    return m;
}

// Whether the prompt was declared (--prompt, a config's input, ids that lay one out): not where the
// declaration says which keys it gave and the prompt is none of them (the default's, or a preset's,
// which the Qwen-VL presets keep for their figures). A caller that says nothing gave every key.
bool promptDeclared(const TableEvidence &e)
{
    return !e.declared.family || e.declared.declares(u"prompt"_s);
}

// The rows' ids besides the prompt (MropeRowIds): a left-padded row's padding, and the window
// --positions A:B declares: with a prompt declared, the sequence's tokens A..B-1 (a decode window
// after the prompt, or a chunk of it); with none, a decode step's window of text tokens, ids A.. on
// every axis.
MropeRowIds rowIdsOf(const TableEvidence &e, const Params &params)
{
    if (e.declared.positionsDeclared)
        return {0, e.declared.firstPosition, promptDeclared(e)};
    return {mropeLeftPadding(params, e.rows())};
}

// The declared M-RoPE but for rope_theta: the theta the table's undeclared reading finds
// (MropeTableFit::read, exact where the table turns its pairs), which, set in the declaration,
// gives every sampled cell at the ids compared: the prompt's, or with no prompt declared the
// table's own read at it. rope-theta named with both values, as RoPE's declared tables name it
// (RopeInvFreq); nothing where another theta explains nothing more.
std::optional<TableMatch> thetaNamed(const TableEvidence &e, const Params &params, bool cosine, TableMatch m)
{
    if (params.rope.type != RopeType::Default)
        return std::nullopt;
    const auto reading = MropeTableFit::read(e);
    if (!reading || reading->cosine != cosine || reading->turns.cols() != e.cols()
        || std::fabs(reading->theta - params.rope.theta) <= 1e-9 * params.rope.theta)
        return std::nullopt;
    Params other = params;
    other.rope.theta = reading->theta;
    if (!other.isValid())
        return std::nullopt;
    Judged j;
    const bool ownIds = !promptDeclared(e) && !rowIdsOf(e, params).window;
    if (ownIds) {
        const auto read = MropeTableFit::readAt(e, reading->theta, params.mrope.section, params.mrope.interleaved);
        if (!read || read->cosine != cosine)
            return std::nullopt;
        const MropeSampledReference at(read->turns, read->cosine, read->rows, read->ids);
        j = judge(at, e, read->turns);
    } else {
        const MropePromptReference at(other, cosine, MropeIdMistake::None, {}, rowIdsOf(e, params));
        j = judge(at, e, at.turns());
    }
    if (j.bad() != 0 || !explains(j.score.compared, j.bad()))
        return std::nullopt;
    const bool given = !e.declared.family || e.declared.declares(u"rope-theta"_s);
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {kTheta};
    m.correctAgainst.clear();
    m.findings[2].value = reading->theta;
    m.diagnosis = u"%5 but rope_theta %1 %2 %3: with that value every sampled row is %4"_s.arg(
        NumberText::exact(reading->theta), given ? DeclaredWords::whereGiven() : DeclaredWords::whereDefault(),
        NumberText::exact(params.rope.theta),
        ownIds ? u"its row at ids read from the row (no prompt is declared to say which)"_s
               : u"its row at get_rope_index's ids of the prompt"_s,
        DeclaredWords::reference());
    m.notes.append(u"the reference the rows are compared with: "_s + m.referenceText);
    return m;
}

// A declared M-RoPE whose prompt was not declared (promptDeclared): the ids are nobody's declaration. The
// table's own ids read from its sampled rows at the declared split and rope_theta; where they
// explain every sampled cell, the table is that M-RoPE at ids no declaration gives: unknown, said,
// never a mistake against a demo prompt (a correct table was mrope-ids-differ against it).
std::optional<TableMatch> atOwnIds(const TableEvidence &e, const Params &params, bool cosine)
{
    if (promptDeclared(e) || rowIdsOf(e, params).window || params.rope.type != RopeType::Default)
        return std::nullopt;
    const auto reading = MropeTableFit::readAt(e, params.rope.theta, params.mrope.section, params.mrope.interleaved);
    if (!reading || reading->cosine != cosine || reading->turns.cols() != e.cols())
        return std::nullopt;
    auto reference
        = std::make_shared<const MropeSampledReference>(reading->turns, reading->cosine, reading->rows, reading->ids);
    const Judged judged = judge(*reference, e, reading->turns);
    if (judged.bad() != 0 || !explains(judged.score.compared, judged.bad()))
        return std::nullopt;
    TableMatch m = atReadIds(e, *reading, std::move(reference), judged);
    m.diagnosis = u"the declared M-RoPE's %1 table (%2) at ids read from its own rows: no prompt is declared, so "
                  "whether they are get_rope_index's cannot be told; --prompt, or --position-ids with the "
                  "[3, L] ids get_rope_index returned, compares every row"_s.arg(cosine ? u"cos"_s : u"sin"_s,
                                                                                 readingWords(*reading));
    m.notes.append(idsNote(e, *reading, judged.float32));
    return m;
}

// The largest id whose t could be read from a row (positions beyond are no window a port dumps).
constexpr std::int64_t kLargestReadId = std::int64_t(1) << 21;

// The t id of the sample's row `i`, read from the pairs t turns: pair 0 (inv_freq 1, an integer id
// times 1 exact in float32) fixes the id modulo 2π to within its value's rounding; of the whole ids
// that fit it, the one t's slower pairs fit best. Nothing where no id fits pair 0.
std::optional<std::int64_t> tIdOf(const TableEvidence &e, std::size_t i, const MropeTurns &turns, bool cosine)
{
    const auto value = [&](std::int64_t j) {
        return double(e.sample.values(std::int64_t(i), turns.half ? j : 2 * j)) / turns.amplitude;
    };
    const double v0 = std::clamp(value(0), -1.0, 1.0);
    const double a = cosine ? std::acos(v0) : std::asin(v0);
    const std::array<double, 2> phases {a, cosine ? -a : std::numbers::pi - a};
    std::optional<std::pair<double, std::int64_t>> best;
    for (std::int64_t k = 0; 2.0 * std::numbers::pi * double(k) - 4.0 <= double(kLargestReadId); ++k) {
        for (const double phase : phases) {
            const double x = std::round(phase + 2.0 * std::numbers::pi * double(k));
            if (x < 0.0 || std::fabs((cosine ? std::cos(x) : std::sin(x)) - v0) > 1e-5)
                continue;
            double error = 0.0;
            for (std::int64_t j = 1; j < turns.pairs(); ++j) {
                if (turns.axes[std::size_t(j)] != 0)
                    continue;
                const double angle = x * turns.inv[std::size_t(j)];
                error += std::fabs((cosine ? std::cos(angle) : std::sin(angle)) - value(j));
            }
            if (!best || error < best->first)
                best = std::pair {error, std::int64_t(x)};
        }
    }
    return best ? std::optional(best->second) : std::nullopt;
}

// Every row the declared reference's at its ids + one constant s (on t, h and w alike): a window
// declared at A whose rows are at A + s, a decode step's cache position off by s, as RoPE's tables
// name position-offset. s is read from the first sampled row's t id (tIdOf); the table at the
// shifted ids then explains every sampled cell. Nothing otherwise.
std::optional<TableMatch> shiftNamed(const TableEvidence &e, const Params &params, const MropePromptReference &correct,
                                     TableMatch m)
{
    if (e.sample.rows.empty() || !correct.turns().columnAxes.empty())
        return std::nullopt;
    const auto t = tIdOf(e, 0, correct.turns(), correct.cosine());
    MropeIds want;
    correct.ids(e.sample.rows.front(), 1, &want);
    if (!t || *t == want.t)
        return std::nullopt;
    MropeRowIds at = correct.rowIds();
    at.shift = *t - want.t;
    const MropePromptReference moved(params, correct.cosine(), MropeIdMistake::None, {}, at);
    const Judged j = judge(moved, e, moved.turns());
    if (j.bad() != 0 || !explains(j.score.compared, j.bad()))
        return std::nullopt;
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {CheckMistakes::kPositionOffset};
    m.correctAgainst.clear();
    const QString window = at.window
        ? u", the window declared at %1 read at %2"_s.arg(*at.window).arg(*at.window + at.shift)
        : QString();
    m.diagnosis
        = u"every row is the M-RoPE %1 table at %2 ids %3 %4 (t, h and w alike)%5: the rows are at "
          "other positions than declared"_s
              .arg(correct.cosine() ? u"cos"_s : u"sin"_s, DeclaredWords::referenceOf(), at.shift > 0 ? u"+"_s : u"−"_s)
              .arg(std::abs(at.shift))
              .arg(window);
    m.notes.append(u"the reference the rows are compared with: "_s + m.referenceText);
    return m;
}

namespace {

// The declared M-RoPE at the table's own width, where the table is narrower than the head: a
// partial_rotary_factor dropped or taken where the code takes another (AI-Hypercomputer/maxtext
// PR#4742: the M-RoPE path drops Qwen3.5's 0.25 and turns all 256 columns). rotary-dim with both
// values where every sampled row is that table (or the other of cos and sin); nothing otherwise, and
// the shapes' refusal stands.
std::optional<TableMatch> rotaryDimNamed(const TableEvidence &e, const Params &params, bool cosine,
                                         const MropeRowIds &at)
{
    if (e.cols() % 2 != 0 || e.cols() > params.rope.headDim)
        return std::nullopt;
    Params wide = params;
    wide.rope.partialRotaryFactor = double(e.cols()) / double(params.rope.headDim);
    if (!wide.isValid() || RopeFrequencies::rotaryDim(wide.rope) != e.cols())
        return std::nullopt;
    auto reference
        = std::make_shared<const MropePromptReference>(wide, cosine, MropeIdMistake::None, std::vector<int> {}, at);
    if (reference->cols() != e.cols() || (!at.window && e.rows() < at.leftPadding + reference->layout().tokens()))
        return std::nullopt;
    const Judged judged = judge(*reference, e, reference->turns());
    // The other of cos and sin is tried too (--expect-config tries both): it is the mistake named,
    // at its own deviating cells, where this width reads the table as the other one.
    if (judged.bad() != 0) {
        const MropePromptReference other(wide, !cosine, MropeIdMistake::None, std::vector<int> {}, at);
        if (judge(other, e, other.turns()).bad() != 0)
            return std::nullopt;
    }
    TableMatch m = matchOf(e, wide, cosine, judged, reference);
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {u"rotary-dim"_s};
    m.correctAgainst.clear();
    m.diagnosis = u"rotary-dim: the table is the declared M-RoPE's %1 table at rotary_dim %2 (partial_rotary_factor "
                  "%3), where %4 gives rotary_dim %5 (head_dim %6 x partial_rotary_factor %7); every other "
                  "parameter the declared one"_s.arg(cosine ? u"cos"_s : u"sin"_s)
                      .arg(e.cols())
                      .arg(NumberText::compact(wide.rope.partialRotaryFactor, 6))
                      .arg(DeclaredWords::referenceOf())
                      .arg(RopeFrequencies::rotaryDim(params.rope))
                      .arg(params.rope.headDim)
                      .arg(NumberText::compact(params.rope.partialRotaryFactor, 6));
    return m;
}

} // namespace

std::variant<TableMatch, QString> expect(const TableEvidence &e, const Params &params, const QString &table)
{
    if (table != kCos && table != kSin)
        return u"M-RoPE's tables are '%1' and '%2', not '%3'"_s.arg(kCos, kSin, table);
    if (!params.isValid() || params.encoding != Encoding::Mrope)
        return u"the parameters are not a valid M-RoPE's"_s;
    const bool cosine = table == kCos;
    // A left-padded row's table (--batch left:N): its padding rows at ids 1.
    const MropeRowIds at = rowIdsOf(e, params);
    if (at.window && !params.batch.lengths.isEmpty())
        return u"--positions: a window of the sequence's tokens, which --batch does not place (--batch left:N "
               "declares a left-padded row's whole table, its padding first); give one of them"_s;
    const std::int64_t padding = at.leftPadding;
    auto correct
        = std::make_shared<const MropePromptReference>(params, cosine, MropeIdMistake::None, std::vector<int> {}, at);
    const MropeLayout &layout = correct->layout();
    if (correct->cols() != e.cols()) {
        if (auto named = rotaryDimNamed(e, params, cosine, at))
            return std::move(*named);
        return u"the parameters give a table of %1 columns (rotary_dim); this one has %2"_s.arg(correct->cols())
            .arg(e.cols());
    }
    if (!at.window && e.rows() < padding + layout.tokens())
        return u"the prompt gives %1; this table has %2%3"_s
            .arg(CountWords::counted(layout.tokens(), u"token"_s), CountWords::counted(e.rows() - padding, u"row"_s))
            .arg(promptDeclared(e)
                     ? u"; --positions A:B says which of the sequence's tokens the rows are (a decode step after the "
                       "prompt: A its cache position)"_s
                     : u" (no --prompt given: the example prompt's); --prompt declares the prompt the table was made "
                       "for (with --positions A:B, which of its tokens the rows are), or --positions A:B alone a "
                       "text-only window (t = h = w = A..B-1)"_s);
    const Judged judged = judge(*correct, e, correct->turns());
    TableMatch m = matchOf(e, params, cosine, judged, correct);
    // The parameters' table, its prompt named in the reference's words, declared or not.
    if (judged.bad() == 0)
        return m;
    // No prompt declared: the table at its own ids, never a mistake against an example prompt.
    if (auto own = atOwnIds(e, params, cosine))
        return std::move(*own);
    if (!promptDeclared(e)) {
        if (auto theta = thetaNamed(e, params, cosine, m))
            return std::move(*theta);
    }
    // The other table of the declared M-RoPE: cos and sin exchanged.
    if (const MropePromptReference other(params, !cosine, MropeIdMistake::None, {}, at);
        judge(other, e, other.turns()).bad() == 0) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {kSinCosSwapped};
        m.correctAgainst.clear();
        m.diagnosis = u"every sampled row is the declared M-RoPE's %1 where its %2 is declared: cos and sin "
                      "exchanged (the other of the rotary embedding's two outputs dumped or passed)"_s.arg(
                          cosine ? u"sin"_s : u"cos"_s, cosine ? u"cos"_s : u"sin"_s);
        m.notes.append(u"the reference the rows are compared with: "_s + m.referenceText);
        return m;
    }
    // The mistakes that change the ids or the split, each where it changes something.
    struct Tried
    {
        QString id;
        Params params;
        MropeIdMistake mistake;
    };
    std::vector<Tried> tried;
    Params flipped = params;
    flipped.mrope.interleaved = !params.mrope.interleaved;
    if (flipped.isValid())
        tried.push_back({kInterleaveSwapped, flipped, MropeIdMistake::None});
    if (std::any_of(layout.spans().begin(), layout.spans().end(), isVision))
        tried.push_back({kAxesSwapped, params, MropeIdMistake::AxesSwapped});
    if (std::any_of(layout.spans().begin(), layout.spans().end(), truncationMoves))
        tried.push_back({kTimeTruncated, truncatedTime(params), MropeIdMistake::None});
    // Qwen2.5-VL's videos at Qwen2-VL's grid index: second_per_grid_ts never reached get_rope_index.
    if (params.mrope.vision == MropeVision::Qwen25Vl
        && std::any_of(layout.spans().begin(), layout.spans().end(), MropeTableWords::videoTimeMoves)) {
        Params frames = params;
        frames.mrope.vision = MropeVision::Qwen2Vl;
        if (frames.isValid())
            tried.push_back({MropeMistakes::kSecondPerGrid, frames, MropeIdMistake::None});
    }
    const std::int64_t cacheEnd = at.window.value_or(0) + e.rows() - padding;
    if (!at.textWindow() && cacheEnd > layout.tokens() && layout.ropeDelta() != 0)
        tried.push_back({kRopeDeltasLost, params, MropeIdMistake::DeltaLost});
    const Params other = MropeMistakes::otherEra(params);
    if (std::any_of(layout.spans().begin(), layout.spans().end(), isVision)
        && std::holds_alternative<MropeLayout>(MropeLayout::build(other.mrope)))
        tried.push_back({MropeMistakes::kOtherEra, other, MropeIdMistake::None});
    std::optional<std::pair<std::int64_t, const Tried *>> best;
    for (const Tried &t : tried) {
        const MropePromptReference reference(t.params, cosine, t.mistake, {}, at);
        const Judged j = judge(reference, e, reference.turns());
        if (j.bad() < judged.bad() && explains(j.score.compared, j.bad()) && (!best || j.bad() < best->first))
            best = std::pair {j.bad(), &t};
    }
    if (!best) {
        if (auto shifted = shiftNamed(e, params, *correct, m))
            return std::move(*shifted);
        if (auto theta = thetaNamed(e, params, cosine, m))
            return std::move(*theta);
        // No id mistake: the table of another mrope_section, else the columns read axis by axis, a
        // half or a section turned by other ids.
        const auto fits = axisFits(e, *correct, cosine);
        if (const auto sections = sectionsRead(correct->turns(), fits, params); !sections.empty()) {
            Params other = params;
            other.mrope.section = sections.front();
            const MropePromptReference read(other, cosine, MropeIdMistake::None, {}, at);
            const Judged j = judge(read, e, read.turns());
            if (j.bad() < judged.bad() && explains(j.score.compared, j.bad())) {
                std::vector<std::int64_t> declared = params.mrope.section, found = sections.front();
                std::sort(declared.begin(), declared.end());
                std::sort(found.begin(), found.end());
                m.verdict = CheckVerdict::Mistake;
                m.mistakes = {declared == found ? kAxesSwapped : MropeMistakes::kOtherSection};
                m.correctAgainst.clear();
                m.diagnosis = sectionWords(sections, correct->turns(), params);
                m.findings[0].value = sectionText(sections.front());
                m.notes.append(u"the reference the rows are compared with: "_s + m.referenceText);
                return m;
            }
        }
        if (const auto axes = columnAxesRead(correct->turns(), fits)) {
            const MropePromptReference moved(params, cosine, MropeIdMistake::None, axes->axes, at);
            const Judged j = judge(moved, e, moved.turns());
            if (j.bad() < judged.bad() && explains(j.score.compared, j.bad())) {
                m.verdict = CheckVerdict::Mistake;
                m.mistakes = {MropeMistakes::kColumnsAxis};
                m.correctAgainst.clear();
                m.diagnosis = columnAxesWords(correct->turns(), *axes, params);
                m.notes.append(u"the reference the rows are compared with: "_s + m.referenceText);
                return m;
            }
        }
        if (const auto words = idsReadBack(e, params, *correct, judged)) {
            m.verdict = CheckVerdict::Mistake;
            m.mistakes = {MropeMistakes::kIdsDiffer};
            m.correctAgainst.clear();
            m.diagnosis = *words;
            m.notes.append(u"the reference the rows are compared with: "_s + m.referenceText);
        }
        return m;
    }
    const QString id = best->second->id;
    m.verdict = CheckVerdict::Mistake;
    m.mistakes = {id};
    m.correctAgainst.clear();
    m.diagnosis = mistakeWords(id, params, layout, e.rows(), at.window.value_or(0));
    if (id == kInterleaveSwapped)
        m.findings[1].value = !params.mrope.interleaved;
    m.notes.append(u"the reference the rows are compared with: "_s + m.referenceText);
    return m;
}

} // namespace

TableHypothesis hypothesis()
{
    TableHypothesis h;
    h.tables = {kCos, kSin};
    h.findingKeys = {u"mrope_section"_s, u"mrope_interleaved"_s, u"base"_s, u"rope_deltas"_s};
    h.help = u"M-RoPE's cos or sin table of a multimodal prompt (tokens x rotary_dim): the split of the pairs between "
             "t, h and w (chunked or interleaved) and rope_theta, and each sampled row's ids read back; against a "
             "declared prompt, every row against get_rope_index's ids"_s;
    h.mistakes = {kTheta,
                  kSinCosSwapped,
                  kInterleaveSwapped,
                  kAxesSwapped,
                  kTimeTruncated,
                  MropeMistakes::kSecondPerGrid,
                  kRopeDeltasLost,
                  MropeMistakes::kOtherEra,
                  MropeMistakes::kOtherSection,
                  MropeMistakes::kColumnsAxis,
                  MropeMistakes::kIdsDiffer,
                  CheckMistakes::kPositionOffset};
    h.fit = fit;
    h.expect = expect;
    h.referenceParams = MropeReferenceParams::read;
    return h;
}

} // namespace posenc::MropeTableCheck
