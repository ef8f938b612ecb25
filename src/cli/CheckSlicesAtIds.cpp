#include "CheckSlicesAtIds.h"

#include "ExitCode.h"

#include "check/CheckDiagnosis.h"
#include "check/DeclaredWords.h"
#include "check/PairReference.h"
#include "check/TensorShapes.h"
#include "check/positions/MropeIdsStructure.h"
#include "check/positions/RowsAtPositions.h"
#include "core/NumberText.h"
#include "core/mrope/MropePrompt.h"
#include "core/rope/RopeFrequencies.h"
#include "io/PositionIdsFile.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;

namespace posenc::CheckSlicesAtIds {

namespace {

using Positions = std::vector<std::int64_t>;

int failAt(QTextStream &err, int code, const QString &message)
{
    err << "posenc check: " << message << '\n';
    return code;
}

// How many rows from the first on have their row numbers as ids (0, 1, 2, ...: the text before an
// image); and how many positions from 0 on the slice holds without a gap (0..k, each at some row).
std::int64_t leadingRun(const Positions &positions)
{
    std::int64_t k = 0;
    while (k < std::int64_t(positions.size()) && positions[std::size_t(k)] == k)
        ++k;
    return k;
}

std::int64_t gapFree(const Positions &positions)
{
    std::vector<bool> held(positions.size() + 1, false);
    for (const std::int64_t p : positions) {
        if (p < std::int64_t(held.size()))
            held[std::size_t(p)] = true;
    }
    std::int64_t k = 0;
    while (k < std::int64_t(held.size()) && held[std::size_t(k)])
        ++k;
    return k;
}

// The slice compared with `base`'s reference placed at `positions`: the verification, concluded into
// a copy of `base`.
struct Placed
{
    TableMatch match;
    TableCheck::Verification verification;
};

Placed placeAt(const TableMatch &base, const PairReferenceSpec &spec, const Positions &positions,
               const TableRows &slice, const TableCheck::StreamOptions &stream)
{
    PairReferenceSpec at = spec;
    at.rowPositions = positions;
    Placed placed {base, {}};
    placed.match.reference = std::make_shared<PairReference>(std::move(at));
    placed.verification = TableCheck::verify(placed.match, slice, stream);
    return placed;
}

bool fits(const Placed &p)
{
    return !p.verification.error && !p.verification.cancelled && p.verification.deviatingCells == 0;
}

// A deviating slice explained: at another slice's ids of the same trailing index (M-RoPE's t, h, w
// of one batch row), or at one position per token; else its deviating cells stay the verdict.
void explain(TableMatch &m, std::int64_t s, const std::vector<Positions> &ids, std::int64_t group,
             const std::vector<std::int64_t> &shape, const TableMatch &base, const PairReferenceSpec &spec,
             const TableRows &slice, const TableCheck::StreamOptions &stream)
{
    const auto count = std::int64_t(ids.size());
    for (std::int64_t o = s % group; o < count; o += group) {
        if (o == s || ids[std::size_t(o)] == ids[std::size_t(s)])
            continue;
        if (fits(placeAt(base, spec, ids[std::size_t(o)], slice, stream))) {
            m.verdict = CheckVerdict::Mistake;
            m.mistakes = QStringList {kSliceAtOtherIds};
            m.diagnosis = u"its rows are at the positions of slice %1's ids, not its own (%2): the slices' "
                          "ids swapped, as M-RoPE's t, h and w sections taken in another order"_s.arg(
                              TensorShapes::sliceLabel(shape, o), kSliceAtOtherIds);
            return;
        }
    }
    Positions tokens(ids[std::size_t(s)].size());
    for (std::size_t r = 0; r < tokens.size(); ++r)
        tokens[r] = std::int64_t(r);
    if (tokens != ids[std::size_t(s)] && fits(placeAt(base, spec, tokens, slice, stream))) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = QStringList {kPositionsNotIds};
        m.diagnosis = u"its rows are at positions 0..%1, one per token, where its ids place them elsewhere (%2): "
                      "1-D positions where the ids give each slice its own, as text positions over an image "
                      "span when get_rope_index is not called"_s.arg(std::int64_t(tokens.size()) - 1)
                          .arg(kPositionsNotIds);
        return;
    }
    // Nothing places the rows elsewhere: the cells deviate at the rows' own ids (the stream's words).
    if (m.worstRow && *m.worstRow >= 0 && *m.worstRow < std::int64_t(ids[std::size_t(s)].size()))
        m.notes.append(u"row %1 of the slice is at its id %2"_s.arg(*m.worstRow)
                           .arg(ids[std::size_t(s)][std::size_t(*m.worstRow)]));
}

TableCheck::StreamOptions streamOf(const CheckTensor::Run &run)
{
    TableCheck::StreamOptions stream;
    stream.threads = run.threads;
    stream.cancel = run.interrupt.flag();
    return stream;
}

// Every slice s of the stack (`shape`: the ids' dimensions, then the width) compared with `base`'s
// reference placed at ids[s], a deviating slice explained, the slices' verdicts combined.
std::variant<TableMatch, int> placeSlices(const TableFile::Tensor &tensor, const std::vector<Positions> &ids,
                                          const std::vector<std::int64_t> &shape, const TableMatch &base,
                                          const PairReferenceSpec &spec, const CheckTensor::Run &run, QTextStream &err)
{
    const TableCheck::StreamOptions stream = streamOf(run);
    const auto count = std::int64_t(ids.size());
    const auto length = std::int64_t(ids.front().size());
    // The slices that share every index but the first (M-RoPE's t, h and w of one batch row).
    const std::int64_t group = count / std::max<std::int64_t>(shape.front(), 1);
    std::vector<TableMatch> matches;
    for (std::int64_t s = 0; s < count; ++s) {
        const auto slice = TensorShapes::slice(tensor.rows, s, length, TensorShapes::sliceLabel(shape, s));
        Placed placed = placeAt(base, spec, ids[std::size_t(s)], *slice, stream);
        if (placed.verification.cancelled || run.interrupt.interrupted())
            return failAt(err, ExitInterrupted, u"interrupted"_s);
        if (placed.verification.error)
            return failAt(err, ExitIo, u"%1: %2"_s.arg(slice->name(), *placed.verification.error));
        TableMatch m = std::move(placed.match);
        TableCheck::conclude(m, placed.verification);
        if (placed.verification.deviatingCells > 0)
            explain(m, s, ids, std::max<std::int64_t>(group, 1), shape, base, spec, *slice, stream);
        matches.push_back(std::move(m));
    }
    return TensorShapes::combine(shape, *tensor.rows, std::move(matches));
}

// Whether `run` declares M-RoPE (--expect mrope, a Qwen-VL config).
bool declaresMrope(const CheckTensor::Run &run)
{
    return run.expected.declares(Encoding::Mrope);
}

// A declared M-RoPE's [3, B, L] ids of its prompt, as get_rope_index gives each of the B rows (the
// same prompt): row r the sequence's token at cache position first + r (--positions A:B: first = A,
// else 0), the prompt's ids, then a generated token's cache_position + rope_deltas (Qwen2VLModel.forward's
// decode branch: position_ids = arange(L) + cache_position[0] + rope_deltas, on every axis); with no
// prompt declared (`textOnly`), a window of text tokens, t = h = w = first + r. Nothing where, with no
// window, the prompt lays out more tokens than L.
std::optional<std::vector<Positions>> promptIds(const Params &p, std::int64_t batch, std::int64_t length,
                                                std::optional<std::int64_t> window, bool textOnly)
{
    const auto built = MropeLayout::build(p.mrope);
    const auto *layout = std::get_if<MropeLayout>(&built);
    if (!layout || (!window && layout->tokens() > length))
        return std::nullopt;
    const std::int64_t first = window.value_or(0);
    std::vector<Positions> ids(std::size_t(3 * batch), Positions(std::size_t(length)));
    for (std::int64_t r = 0; r < length; ++r) {
        const std::int64_t cache = first + r, generated = textOnly ? cache : cache + layout->ropeDelta();
        const MropeIds id = !textOnly && cache < layout->tokens()
            ? layout->ids(cache)
            : MropeIds {MropeTokenKind::Text, generated, generated, generated};
        for (std::int64_t b = 0; b < batch; ++b) {
            ids[std::size_t(b)][std::size_t(r)] = id.t;
            ids[std::size_t(batch + b)][std::size_t(r)] = id.h;
            ids[std::size_t(2 * batch + b)][std::size_t(r)] = id.w;
        }
    }
    return ids;
}

// A declared M-RoPE's cos or sin before the merge: each axis's slice is RoPE's table at M-RoPE's
// rope_theta and rotary_dim (Qwen2VLRotaryEmbedding.forward turns every column of slice [a, b] at
// ids[a, b, r]; apply_multimodal_rotary_pos_emb then picks each section from its axis), its rows at
// that axis's ids. The declared table word (cos, sin, or both tried on the first slice) kept.
std::variant<TableMatch, int> axesAt(const TableFile::Tensor &tensor, const std::vector<Positions> &ids,
                                     const std::vector<std::int64_t> &shape, const CheckTensor::Run &run,
                                     const QString &idsWords, const Params &declared, QTextStream &err)
{
    const auto length = std::int64_t(ids.front().size());
    Params p = declared;
    p.encoding = Encoding::Rope;
    const auto slice0 = TensorShapes::slice(tensor.rows, 0, length, TensorShapes::sliceLabel(shape, 0));
    std::optional<Placed> best;
    for (const QString &word : run.expected.tables) {
        const QString rope = word.endsWith(u"-sin"_s) ? u"rope-sin"_s : u"rope-cos"_s;
        auto expected = TableCheck::expect(*slice0, Encoding::Rope, p, rope, run.interrupt.flag());
        if (const auto *problem = std::get_if<QString>(&expected))
            return failAt(err, ExitUsage, u"--expect mrope: each axis's slice is RoPE's table, but %1"_s.arg(*problem));
        const TableMatch &match = std::get<TableMatch>(expected);
        const auto *pairs = dynamic_cast<const PairReference *>(match.reference.get());
        if (!pairs)
            continue;
        Placed placed = placeAt(match, pairs->spec(), ids.front(), *slice0, streamOf(run));
        if (!best || placed.verification.deviatingCells < best->verification.deviatingCells)
            best = std::move(placed);
    }
    if (run.interrupt.interrupted())
        return failAt(err, ExitInterrupted, u"interrupted"_s);
    if (!best)
        return failAt(err, ExitUsage, u"--expect mrope: no RoPE table of M-RoPE's parameters to place at the ids"_s);
    // The declared reference alone: what RoPE's expect read of the slice's rows (at the axis's ids,
    // not 0..L-1) is no finding of the stack's.
    TableMatch base = best->match;
    const auto *pairs = dynamic_cast<const PairReference *>(base.reference.get());
    PairReferenceSpec spec = pairs->spec();
    spec.rowPositions.clear();
    spec.firstRow = 0;
    spec.positionOffset = 0;
    spec.paddingRows.clear();
    base.verdict = CheckVerdict::Correct;
    base.mistakes.clear();
    base.notes.clear();
    base.positionOffset.reset();
    base.firstPositionRow.reset();
    base.rowsMoved = false;
    base.referenceText
        = u"M-RoPE's %1 before the merge, each axis's slice RoPE's at rope_theta %2, rotary_dim %3, "
          "its rows at that axis's %4"_s
              .arg(base.table == u"rope-sin"_s ? u"sin"_s : u"cos"_s, NumberText::exact(declared.rope.theta))
              .arg(2 * RopeFrequencies::pairs(declared.rope))
              .arg(idsWords);
    base.correctAgainst = CheckDiagnosis::declaredReference(base.referenceText);
    base.diagnosis = base.referenceText;
    auto m = placeSlices(tensor, ids, shape, base, spec, run, err);
    if (auto *placed = std::get_if<TableMatch>(&m)) {
        placed->family = Encoding::Mrope;
        placed->notes.prepend(u"a stack of (3, ..., L, d): the per-axis %1 of Qwen2VLRotaryEmbedding.forward, before "
                              "apply_multimodal_rotary_pos_emb picks each section from its axis"_s.arg(
                                  base.table == u"rope-sin"_s ? u"sin"_s : u"cos"_s));
    }
    return m;
}

// The rope_theta of the stack's rows every slice holds at their row numbers (the text before a
// vision block, positions 0, 1, ...), read as posenc check reads a RoPE table; nothing where they
// are fewer than two or read as no RoPE table.
std::optional<double> prefixTheta(const TableFile::Tensor &tensor, const std::vector<Positions> &ids,
                                  const CheckTensor::Run &run)
{
    std::int64_t run0 = std::int64_t(ids.front().size());
    for (const Positions &slice : ids)
        run0 = std::min(run0, leadingRun(slice));
    if (run0 < 2)
        return std::nullopt;
    RowsAtPositions::Layout layout;
    for (std::int64_t r = 0; r < run0; ++r)
        layout.firstRow.push_back(r);
    auto identified = TableCheck::identify(*RowsAtPositions::byPosition(tensor.rows, layout), TableCheck::Declared {},
                                           run.interrupt.flag());
    const auto *read = std::get_if<TableMatch>(&identified);
    if (!read || !read->params || read->family != Encoding::Rope
        || (read->verdict != CheckVerdict::Correct && read->verdict != CheckVerdict::Variant))
        return std::nullopt;
    return read->params->rope.theta;
}

// The declared M-RoPE's axes (axesAt); a stack that deviates unnamed, but is correct at the
// rope_theta its text rows read, names rope-theta with both values.
std::variant<TableMatch, int> declaredAxes(const TableFile::Tensor &tensor, const std::vector<Positions> &ids,
                                           const std::vector<std::int64_t> &shape, const CheckTensor::Run &run,
                                           const QString &idsWords, QTextStream &err)
{
    const Params declared = CheckExpect::atShape(run.expected, std::int64_t(ids.front().size()), tensor.rows->cols());
    auto m = axesAt(tensor, ids, shape, run, idsWords, declared, err);
    auto *match = std::get_if<TableMatch>(&m);
    if (!match || match->verdict != CheckVerdict::Mistake || !match->mistakes.isEmpty())
        return m;
    const auto theta = prefixTheta(tensor, ids, run);
    if (!theta || std::fabs(*theta - declared.rope.theta) <= 1e-9 * declared.rope.theta)
        return m;
    Params other = declared;
    other.rope.theta = *theta;
    QString unsaid;
    QTextStream quiet(&unsaid);
    const auto at = other.isValid() ? axesAt(tensor, ids, shape, run, idsWords, other, quiet) : m;
    const auto *there = std::get_if<TableMatch>(&at);
    if (!there || there->verdict != CheckVerdict::Correct)
        return m;
    const bool given = !run.expected.given || run.expected.given->contains(u"rope-theta"_s);
    match->mistakes = {u"rope-theta"_s};
    match->notes.prepend(match->diagnosis);
    match->diagnosis = u"the declared M-RoPE but rope_theta %1 %2 %3: with that value every slice is its axis's "
                       "table at its ids"_s.arg(NumberText::exact(*theta),
                                                given ? DeclaredWords::whereGiven() : DeclaredWords::whereDefault(),
                                                NumberText::exact(declared.rope.theta));
    return m;
}

// Whether the stack's first three slices (t, h and w of batch row 0 as axes) are one table where the
// prompt's ids differ between the axes: then they are three batch rows of the merged table, not the
// axes, whose h and w slices turn by other ids than t's on the vision rows.
bool sameSlices(const TableRows &rows, const std::vector<Positions> &ids, std::int64_t batch, std::int64_t length)
{
    constexpr std::int64_t kMostCells = std::int64_t(1) << 22;
    if (ids[0] == ids[std::size_t(batch)] && ids[0] == ids[std::size_t(2 * batch)])
        return false; // a text prompt: the axes and the merged table are one
    if (length * rows.cols() > kMostCells)
        return false;
    std::array<std::vector<float>, 3> slices;
    QString error;
    for (std::size_t a = 0; a < 3; ++a) {
        slices[a].resize(std::size_t(length * rows.cols()));
        if (!rows.read(std::int64_t(a) * batch * length, length, slices[a].data(), error))
            return false;
    }
    return slices[0] == slices[1] && slices[0] == slices[2];
}

// Each of the 3·B slices of a declared M-RoPE's [3, B, L, d] checked as the declared table on its own
// (M-RoPE's table check, the window and prompt declared), the slices' verdicts combined: where every
// row is a text token (t = h = w), each axis's slice is the merged table.
std::variant<TableMatch, int> eachSlice(const TableFile::Tensor &tensor, std::int64_t batch, std::int64_t length,
                                        const CheckTensor::Run &run, QTextStream &err)
{
    const std::vector<std::int64_t> shape {3, batch, length, tensor.rows->cols()};
    std::vector<TableMatch> matches;
    for (std::int64_t s = 0; s < 3 * batch; ++s) {
        TableFile::Tensor slice;
        slice.rows = TensorShapes::slice(tensor.rows, s, length, TensorShapes::sliceLabel(shape, s));
        slice.shape = {length, tensor.rows->cols()};
        auto checked = CheckTensor::check(slice, run, err);
        if (const int *code = std::get_if<int>(&checked))
            return *code;
        matches.push_back(std::get<TableMatch>(std::move(checked)));
    }
    TableMatch m = TensorShapes::combine(shape, *tensor.rows, std::move(matches));
    m.notes.prepend(u"a stack of (3, %1, %2, d): the per-axis cos or sin of Qwen2VLRotaryEmbedding.forward, %3 "
                    "sequence%4 of %2 row%5, each slice checked as the declared table"_s.arg(batch)
                        .arg(length)
                        .arg(batch)
                        .arg(batch == 1 ? QString() : u"s"_s)
                        .arg(length == 1 ? QString() : u"s"_s));
    return m;
}

// A declared M-RoPE's stack of (3, [B,] L, d) with a declared prompt or window (--positions A:B): the
// axes' slices at the prompt's ids (declaredAxes); each slice alone (eachSlice) where L is 1 and the
// rows are text tokens or undeclared (a decode step: [3, B, 1, d] is 3·B one-row slices, not 3 slices
// of B rows); nothing where M-RoPE is not declared, the stack is of another shape, or a window of
// L > 1 text tokens is declared (the stack's slices, each read as M-RoPE's table by CheckTensor).
std::optional<std::variant<TableMatch, int>> promptAxes(const TableFile::Tensor &tensor, const CheckTensor::Run &run,
                                                        QTextStream &err)
{
    const CheckExpect::Expectation &e = run.expected;
    const bool prompt = e.given ? e.given->contains(u"prompt"_s) : e.inputs.contains(u"prompt"_s);
    const std::vector<std::int64_t> dims = TensorShapes::notOne(tensor.shape);
    if (!declaresMrope(run) || tensor.shape.size() < 3 || tensor.shape.front() != 3 || dims.size() > 4
        || (dims.size() <= 2 && tensor.shape.size() != 4))
        return std::nullopt;
    const std::int64_t length = tensor.shape[tensor.shape.size() - 2];
    const std::int64_t batch = tensor.rows->rows() / std::max<std::int64_t>(3 * length, 1);
    if (batch < 1 || tensor.rows->rows() != 3 * batch * length)
        return std::nullopt;
    const std::optional<std::int64_t> window = e.positionsDeclared ? std::optional(e.firstPosition) : std::nullopt;
    const Params p = CheckExpect::atShape(e, length, tensor.rows->cols());
    const auto ids = prompt || window ? promptIds(p, batch, length, window, !prompt) : std::nullopt;
    const bool text = ids && (*ids)[0] == (*ids)[std::size_t(batch)] && (*ids)[0] == (*ids)[std::size_t(2 * batch)];
    if (length == 1 && (!ids || text))
        return eachSlice(tensor, batch, length, run, err);
    if (!ids || !prompt || (window && text) || sameSlices(*tensor.rows, *ids, batch, length))
        return std::nullopt;
    const QString words = window ? u"get_rope_index ids of the prompt %1 at the sequence's tokens %2..%3"_s.arg(
                                       p.mrope.prompt)
                                       .arg(*window)
                                       .arg(*window + length - 1)
                                 : u"get_rope_index ids of the prompt "_s + p.mrope.prompt;
    return declaredAxes(tensor, *ids, tensor.shape, run, words, err);
}

// A declared M-RoPE's batch of merged tables, [B, L, d], each row b checked as its own table at its
// ids (`ids`, [3·B, L], t's rows first): the prompt they lay out (promptOf, left padding and a
// Qwen2.5-VL's timing with it) declared, as [3, L] ids declare a table's; the rows' verdicts
// combined. The usage exit where a row's ids lay out no prompt, said with the row.
std::variant<TableMatch, int> mergedRows(const TableFile::Tensor &tensor, const RowMatrixXf &ids,
                                         const CheckTensor::Run &run, QTextStream &err)
{
    const std::int64_t length = ids.cols(), batch = ids.rows() / 3;
    const CheckExpect::Expectation &e = run.expected;
    const Params declared = CheckExpect::atShape(e, length, tensor.rows->cols());
    const bool qwen25 = declared.mrope.vision == MropeVision::Qwen25Vl;
    std::vector<TableMatch> matches;
    for (std::int64_t b = 0; b < batch; ++b) {
        RowMatrixXf row(3, length);
        for (int a = 0; a < 3; ++a)
            row.row(a) = ids.row(a * batch + b);
        const auto prompt = MropeIdsStructure::promptOf(row, declared.mrope.spatialMergeSize,
                                                        qwen25 ? std::optional<double>(declared.mrope.tokensPerSecond)
                                                               : std::nullopt);
        if (!prompt.problem.isEmpty())
            return failAt(
                err, ExitUsage,
                u"--position-ids: row %1's ids (t, h, w) stand for the prompt they lay out, but %2"_s.arg(b).arg(
                    prompt.problem));
        Params p = declared;
        p.mrope.prompt = prompt.prompt;
        p.mrope.era = prompt.v5 ? MropeEra::V5 : p.mrope.era;
        p.batch.lengths = prompt.leftPadding > 0 ? u"left:%1"_s.arg(length - prompt.leftPadding) : QString();
        if (!p.isValid())
            return failAt(err, ExitUsage,
                          u"--position-ids: row %1's prompt %2 is no valid M-RoPE prompt"_s.arg(b).arg(prompt.prompt));
        TableCheck::Declared declaration {p, e.given.value_or(QStringList()) << u"prompt"_s, std::nullopt};
        if (e.given)
            declaration.family = Encoding::Mrope;
        const auto slice = TensorShapes::slice(tensor.rows, b, length, TensorShapes::sliceLabel({batch, length}, b));
        std::optional<std::pair<TableMatch, TableCheck::Verification>> best;
        for (const QString &word : e.tables) {
            auto expected = TableCheck::expect(*slice, Encoding::Mrope, p, word, run.interrupt.flag(), declaration);
            if (run.interrupt.interrupted())
                return failAt(err, ExitInterrupted, u"interrupted"_s);
            if (const auto *problem = std::get_if<QString>(&expected))
                return failAt(err, ExitUsage, u"--expect %1: %2"_s.arg(word, *problem));
            TableMatch match = std::get<TableMatch>(std::move(expected));
            const TableCheck::Verification v = TableCheck::verify(match, *slice, streamOf(run));
            if (v.cancelled || run.interrupt.interrupted())
                return failAt(err, ExitInterrupted, u"interrupted"_s);
            if (v.error)
                return failAt(err, ExitIo, u"%1: %2"_s.arg(slice->name(), *v.error));
            if (!best || v.deviatingCells < best->second.deviatingCells)
                best = std::pair {std::move(match), v};
        }
        if (!best)
            return failAt(err, ExitUsage, u"--expect mrope: no table to compare the rows with"_s);
        TableCheck::conclude(best->first, best->second);
        matches.push_back(std::move(best->first));
    }
    TableMatch m = TensorShapes::combine({batch, length, tensor.rows->cols()}, *tensor.rows, std::move(matches));
    m.notes.prepend(u"a batch of %1 rows of merged tables, each at its --position-ids (t, h, w), the prompt they lay "
                    "out declared"_s.arg(batch));
    return m;
}

} // namespace

QStringList mistakeIds()
{
    return {kSliceAtOtherIds, kPositionsNotIds};
}

std::optional<std::variant<TableMatch, int>> check(const TableFile::Tensor &tensor, const QString &idsPath,
                                                   const CheckTensor::Run &run, QTextStream &err)
{
    // A declared M-RoPE's [3, B, L, d] with its prompt or window; [3, 1, 1, d] too (one decode step).
    if (idsPath.isEmpty())
        return promptAxes(tensor, run, err);
    // A table's ids, and one id a row of a stack, are RowsAtPositions' (PositionIdsCheckCommand).
    if (TensorShapes::notOne(tensor.shape).size() <= 2)
        return std::nullopt;
    const auto read = PositionIdsFile::read(idsPath, run.budget);
    if (!read)
        return failAt(err, exitCodeOf(read.error()), u"--position-ids: "_s + read.error().toString());
    if (read->shape.size() <= 2)
        return std::nullopt;
    const std::vector<std::int64_t> idsDims = TensorShapes::notOne(read->shape);
    std::vector<std::int64_t> rowDims = TensorShapes::notOne(tensor.shape);
    const bool wide = rowDims.size() >= 2 && tensor.shape.back() >= 2;
    if (wide)
        rowDims.pop_back();
    const std::int64_t length = read->values.cols(), count = read->values.rows();
    // A declared M-RoPE's merged rows of a batch ([B, L, d], Qwen3-VL's rotary output, or the merge
    // of apply_multimodal_rotary_pos_emb) with get_rope_index's [3, B, L]: each row's table at its ids.
    if (declaresMrope(run) && read->shape.front() == 3 && wide && tensor.rows->rows() * 3 == count * length)
        return mergedRows(tensor, read->values, run, err);
    if (!wide || rowDims != idsDims || tensor.rows->rows() != count * length)
        return failAt(err, ExitUsage,
                      u"--position-ids: ids of shape %1 give a row's position for a stack of shape (%2, d); %3 is "
                      "shape %4"_s.arg(TensorShapes::shapeText(read->shape),
                                       TensorShapes::shapeText(read->shape).mid(1).chopped(1), tensor.rows->name(),
                                       TensorShapes::shapeText(tensor.shape)));
    std::vector<Positions> ids(static_cast<std::size_t>(count), Positions(static_cast<std::size_t>(length)));
    for (std::int64_t s = 0; s < count; ++s) {
        for (std::int64_t r = 0; r < length; ++r) {
            const double v = double(read->values(s, r));
            if (!(v >= 0.0 && v < 16777216.0) || v != std::floor(v))
                return failAt(
                    err, ExitUsage,
                    u"--position-ids: id [%1, %2] is %3; ids are whole numbers in [0, 2^24)"_s.arg(s).arg(r).arg(v));
            ids[std::size_t(s)][std::size_t(r)] = std::int64_t(v);
        }
    }
    // The stack's own shape: its slices are the ids' rows.
    std::vector<std::int64_t> shape = read->shape;
    shape.push_back(tensor.shape.back());
    if (declaresMrope(run) && read->shape.front() == 3)
        return declaredAxes(tensor, ids, shape, run, u"--position-ids"_s, err);

    // The reading: from the leading rows every slice holds at their row numbers (the text before an
    // image, where the slices agree), else from the slice whose positions run longest from 0 without
    // a gap.
    std::int64_t from = 0, run0 = length;
    for (const Positions &slice : ids)
        run0 = std::min(run0, leadingRun(slice));
    if (run0 < 2) {
        for (std::int64_t s = 0; s < count; ++s) {
            if (const std::int64_t k = gapFree(ids[std::size_t(s)]); k > run0) {
                run0 = k;
                from = s;
            }
        }
    }
    if (run0 < 2) {
        TableMatch unknown;
        unknown.diagnosis = u"no slice holds positions 0 and 1: nothing to read its table from, so its rows at their "
                            "ids cannot be told right or wrong"_s;
        return unknown;
    }
    RowsAtPositions::Layout layout;
    layout.firstRow.assign(std::size_t(run0), -1);
    for (std::int64_t r = length; r-- > 0;) {
        const std::int64_t p = ids[std::size_t(from)][std::size_t(r)];
        if (p < run0)
            layout.firstRow[std::size_t(p)] = from * length + r;
    }
    TableFile::Tensor prefix;
    prefix.rows = RowsAtPositions::byPosition(tensor.rows, layout);
    prefix.shape = {run0, tensor.rows->cols()};
    auto read0 = CheckTensor::check(prefix, run, err);
    if (const int *code = std::get_if<int>(&read0))
        return *code;
    TableMatch base = std::get<TableMatch>(std::move(read0));
    const QString readFrom
        = u"slice %1's rows at positions 0-%2"_s.arg(TensorShapes::sliceLabel(shape, from)).arg(run0 - 1);
    const auto *pairs = dynamic_cast<const PairReference *>(base.reference.get());
    const bool placeable = pairs && pairs->spec().firstRow == 0 && pairs->spec().positionOffset == 0
        && pairs->spec().paddingRows.empty() && pairs->spec().rowPositions.empty();
    if (!placeable || base.verdict == CheckVerdict::Mistake) {
        if (base.verdict != CheckVerdict::Mistake)
            base.verdict = CheckVerdict::Unknown;
        base.notes.prepend(u"read from %1 as %2; %3"_s.arg(
            readFrom, CheckWords::verdict(base.verdict),
            placeable ? u"its mistake there is the stack's"_s
                      : u"its reference cannot be placed at other positions, so the other rows cannot be told"_s));
        return base;
    }
    auto m = placeSlices(tensor, ids, shape, base, pairs->spec(), run, err);
    if (auto *placed = std::get_if<TableMatch>(&m))
        placed->notes.prepend(u"rows read at their --position-ids %1: slice s's row r at position ids[s, r], each "
                              "slice against the reading of %2"_s.arg(TensorShapes::shapeText(read->shape), readFrom));
    return m;
}

} // namespace posenc::CheckSlicesAtIds
