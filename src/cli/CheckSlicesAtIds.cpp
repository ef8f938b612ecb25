#include "CheckSlicesAtIds.h"

#include "ExitCode.h"

#include "check/PairReference.h"
#include "check/TensorShapes.h"
#include "check/positions/RowsAtPositions.h"
#include "io/PositionIdsFile.h"

#include <algorithm>
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

} // namespace

QStringList mistakeIds()
{
    return {kSliceAtOtherIds, kPositionsNotIds};
}

std::optional<std::variant<TableMatch, int>> check(const TableFile::Tensor &tensor, const QString &idsPath,
                                                   const CheckTensor::Run &run, QTextStream &err)
{
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
    const PairReferenceSpec spec = pairs->spec();

    TableCheck::StreamOptions stream;
    stream.threads = run.threads;
    stream.cancel = run.interrupt.flag();
    // The slices that share every index but the first (M-RoPE's t, h and w of one batch row).
    const std::int64_t group = count / std::max<std::int64_t>(read->shape.front(), 1);
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
    TableMatch m = TensorShapes::combine(shape, *tensor.rows, std::move(matches));
    m.notes.prepend(u"rows read at their --position-ids %1: slice s's row r at position ids[s, r], each slice "
                    "against the reading of %2"_s.arg(TensorShapes::shapeText(read->shape), readFrom));
    return m;
}

} // namespace posenc::CheckSlicesAtIds
