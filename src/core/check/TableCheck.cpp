#include "TableCheck.h"

#include "core/NumberText.h"
#include "core/check/CheckDiagnosis.h"
#include "core/check/LearnedFit.h"
#include "core/check/RopeFit.h"
#include "core/check/SinusoidalFit.h"
#include "core/check/TableSample.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::TableCheck {

namespace {

// A family's sample match: at most one cell in ten beyond the tolerance, so that a table with a
// few wrong cells or columns is still named (and its cells shown) rather than called unknown.
bool explains(const SampleScore &score, std::int64_t bad)
{
    return score.compared > 0 && bad * 10 <= score.compared;
}

// Rows of zeros among the first rows: leading ones start the comparison after them, later ones
// are padding rows (fairseq's padding_idx) left out of it.
RowFraming frameRows(const TableSample &sample)
{
    RowFraming framing;
    const std::int64_t leading = std::min<std::int64_t>(sample.leadingRows, 8);
    const auto zero = [&](std::int64_t i) { return sample.values.row(i).cwiseAbs().maxCoeff() == 0.0f; };
    while (framing.firstRow < leading && zero(framing.firstRow))
        ++framing.firstRow;
    for (std::int64_t r = framing.firstRow; r < leading; ++r) {
        if (zero(r))
            framing.paddingRows.push_back(r);
    }
    return framing;
}

TablePrecision precisionOf(ValueFormat format, bool float32Angles)
{
    if (float32Angles)
        return TablePrecision::Float32Angles;
    switch (format) {
    case ValueFormat::Float32:
        return TablePrecision::Exact;
    case ValueFormat::Float16:
        return TablePrecision::Float16;
    case ValueFormat::BFloat16:
        return TablePrecision::BFloat16;
    }
    return TablePrecision::Exact;
}

std::optional<Params> validParams(const Params &params)
{
    return params.isValid() ? std::optional<Params>(params) : std::nullopt;
}

// The sinusoid's parameters whose table is the reference from its first row: half_dim - 1's
// frequencies are the paper's of base b^(d / (2 (h - 1))).
std::optional<Params> sinusoidalParams(const SinusoidalFit::Hypothesis &h, std::int64_t dModel, std::int64_t rows,
                                       bool float32Angles)
{
    Params p;
    p.encoding = Encoding::Sinusoidal;
    p.dModel = std::min(dModel, Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(rows, 1, Params::kMaxLen);
    p.sinusoidal.layout = h.layout;
    p.sinusoidal.angles = float32Angles ? Angles::Float32 : Angles::Exact;
    p.sinusoidal.base = h.variant == SinusoidalFit::Variant::HalfDimMinusOne
        ? std::exp(std::log(h.base) * double(dModel) / (2.0 * double(dModel / 2 - 1)))
        : h.base;
    return validParams(p);
}

struct Context
{
    const TableRows &table;
    const Declared &declared;
    const TableSample &sample;
    const RowFraming &framing;
    ValueFormat format;
};

TableMatch sinusoidalMatch(const Context &c, const SinusoidalFit::Fit &fit)
{
    const std::int64_t d = c.sample.cols();
    const SinusoidalFit::Hypothesis &h = fit.hypothesis;
    TableMatch m;
    m.encoding = TableEncoding::Sinusoidal;
    m.layout = h.layout;
    m.frequencies = h.variant == SinusoidalFit::Variant::HalfDimMinusOne ? SinusoidFrequencies::HalfDimMinusOne
                                                                         : SinusoidFrequencies::Paper;
    m.base = h.base;
    m.positionOffset = h.firstPosition - c.framing.firstRow;
    // fairseq reads positions from padding_idx + 1: its zero row's next.
    m.firstPositionRow = h.variant == SinusoidalFit::Variant::HalfDimMinusOne && !c.framing.paddingRows.empty()
        ? c.framing.paddingRows.back() + 1
        : c.framing.firstRow;
    m.precision = precisionOf(c.format, fit.float32Angles);
    m.mistakes = SinusoidalFit::mistakesOf(h, c.framing.firstRow);
    SinusoidalFit::Hypothesis correct = SinusoidalFit::corrected(h, c.framing.firstRow);
    const bool layoutDeclared = c.declared.layout && *c.declared.layout != h.layout;
    if (layoutDeclared)
        correct.layout = *c.declared.layout;
    m.reference = SinusoidalFit::reference(correct, d, c.framing);
    m.tolerance
        = cellTolerance(c.format, fit.float32Angles, c.table.storedType(), c.table.textRounding(), *m.reference);
    m.params = sinusoidalParams(correct, d, c.table.rows(), fit.float32Angles);
    m.referenceText = CheckDiagnosis::sinusoidReference(correct, c.framing);
    m.diagnosis = CheckDiagnosis::sinusoid(h, correct, d, c.framing, m.mistakes, layoutDeclared);
    m.notes = CheckDiagnosis::sinusoidNotes(h, c.framing, *m.precision);
    m.verdict = m.mistakes.empty() && !layoutDeclared ? CheckVerdict::Correct : CheckVerdict::Mistake;
    return m;
}

TableMatch ropeMatch(const Context &c, const RopeFit::Fit &fit)
{
    const RopeFit::Hypothesis &h = fit.hypothesis;
    // A sin table's first row is sin(0) = 0, which the framing took for padding: it is position 0.
    RowFraming framing = c.framing;
    RopeFit::Hypothesis correct = fit.correct;
    std::int64_t firstPosition = h.firstPosition;
    if (!h.cosine && framing.firstRow > 0 && h.firstPosition >= framing.firstRow) {
        firstPosition -= framing.firstRow;
        correct.firstPosition -= framing.firstRow;
        framing.firstRow = 0;
    }
    TableMatch m;
    m.encoding = h.cosine ? TableEncoding::RopeCos : TableEncoding::RopeSin;
    m.ropeLayout = h.params.rope.layout;
    m.base = h.params.rope.theta;
    m.ropeType = h.params.rope.type;
    m.attentionFactor = h.amplitude;
    m.positionOffset = firstPosition - framing.firstRow;
    m.firstPositionRow = framing.firstRow;
    m.precision = precisionOf(c.format, fit.float32Angles);
    m.mistakes = fit.mistakes;
    if (c.declared.ropeLayout)
        correct.params.rope.layout = *c.declared.ropeLayout;
    m.reference = RopeFit::reference(correct, framing);
    m.tolerance
        = cellTolerance(c.format, fit.float32Angles, c.table.storedType(), c.table.textRounding(), *m.reference);
    m.params = validParams(correct.params);
    m.referenceText = CheckDiagnosis::ropeReference(correct);
    m.diagnosis = CheckDiagnosis::rope(fit, correct);
    m.notes = fit.notes + CheckDiagnosis::ropeNotes(fit);
    m.verdict = m.mistakes.empty() ? CheckVerdict::Correct : CheckVerdict::Mistake;
    return m;
}

// Every position holds the same row: the row of position 0 in a layout names the sinusoid it
// was cut from; base 10000 assumed, as that row does not show the base.
TableMatch sameRowMatch(const Context &c)
{
    const std::int64_t d = c.sample.cols();
    const auto row = c.sample.values.row(c.framing.firstRow);
    TableMatch m;
    m.mistakes = {TableMistake::SameRow};
    m.verdict = CheckVerdict::Mistake;
    m.firstPositionRow = c.framing.firstRow;
    for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
        SinusoidalFit::Hypothesis h;
        h.layout = layout;
        h.firstPosition = c.framing.firstRow;
        const ReferenceSpec spec = SinusoidalFit::reference(h, d, RowFraming {});
        RowMatrixXf first(1, d);
        ReferenceTable(spec).fill({0, 1, 0, d}, first);
        if ((first.row(0) - row).cwiseAbs().maxCoeff() > 1e-6f)
            continue;
        m.encoding = TableEncoding::Sinusoidal;
        m.layout = layout;
        m.frequencies = SinusoidFrequencies::Paper;
        m.base = h.base;
        m.positionOffset = 0;
        m.precision = TablePrecision::Exact;
        m.reference = SinusoidalFit::reference(h, d, c.framing);
        m.tolerance = cellTolerance(c.format, false, c.table.storedType(), c.table.textRounding(), *m.reference);
        m.params = sinusoidalParams(h, d, c.table.rows(), false);
        m.referenceText = CheckDiagnosis::sinusoidReference(h, c.framing) + u" (base 10000 assumed)"_s;
        break;
    }
    m.diagnosis = CheckDiagnosis::sameRow(m.encoding == TableEncoding::Sinusoidal);
    return m;
}

TableMatch learnedMatch(const Context &c, const LearnedFit::Structure &s, const std::optional<SinusoidalFit::Fit> &near)
{
    TableMatch m;
    m.encoding = TableEncoding::Learned;
    m.firstPositionRow = s.firstPositionRow;
    m.positionOffset = -s.firstPositionRow;
    m.verdict = CheckVerdict::Correct;
    if (c.declared.firstPositionRow && *c.declared.firstPositionRow != s.firstPositionRow) {
        m.mistakes = {TableMistake::PositionOffset};
        m.verdict = CheckVerdict::Mistake;
    }
    m.diagnosis = CheckDiagnosis::learned(s, c.declared.firstPositionRow);
    m.notes = CheckDiagnosis::learnedNotes(s);
    if (near && near->score.relativeResidual() < 0.1)
        m.notes.append(CheckDiagnosis::nearestSinusoid(near->hypothesis, near->score));
    Params p;
    p.encoding = Encoding::Learned;
    p.dModel = std::min(c.sample.cols(), Params::kMaxDModel);
    p.maxLen = std::clamp<std::int64_t>(c.table.rows() - s.firstPositionRow, 1, Params::kMaxLen);
    p.learned.offset = s.firstPositionRow;
    m.params = p; // the window loads the table itself as the position table
    return m;
}

} // namespace

std::variant<TableMatch, QString> identify(const TableRows &table, const Declared &declared)
{
    if (table.cols() <= 0)
        return u"the table has no columns; a table of positions is L x d with d >= 1"_s;
    if (table.rows() <= 0)
        return u"the table has no rows; a table of positions is L x d with L >= 1"_s;
    QString error;
    const std::optional<TableSample> sample = readSample(table, kSampleCells, error);
    if (!sample)
        return error;
    // The values' own format: float16-rounded values stored as float32 are float16 values.
    ValueFormat format = storedFormat(table.storedType());
    if (format == ValueFormat::Float32 && table.storedType() != StoredType::Integer)
        format = representableFormat(sample->values.data(), sample->values.size());
    const RowFraming framing = frameRows(*sample);
    const Context c {table, declared, *sample, framing, format};

    TableMatch unknown;
    unknown.verdict = CheckVerdict::Unknown;
    if (sample->values.cwiseAbs().maxCoeff() == 0.0f) {
        unknown.diagnosis = CheckDiagnosis::allZero();
        return unknown;
    }
    if (framing.firstRow >= sample->leadingRows && framing.firstRow < sample->size()) {
        unknown.diagnosis = CheckDiagnosis::tooFewRows(table.rows());
        return unknown;
    }

    // The rows a reference would compare.
    std::vector<std::int64_t> compared;
    for (std::int64_t i = 0; i < sample->size(); ++i) {
        const std::int64_t row = sample->rows[std::size_t(i)];
        if (row >= framing.firstRow && !std::binary_search(framing.paddingRows.begin(), framing.paddingRows.end(), row))
            compared.push_back(i);
    }
    if (compared.size() < 3) {
        unknown.diagnosis = CheckDiagnosis::tooFewRows(table.rows());
        return unknown;
    }
    bool same = true;
    const double scale = sample->values.cwiseAbs().maxCoeff();
    for (std::size_t k = 1; k < compared.size() && same; ++k)
        same = (sample->values.row(compared[k]) - sample->values.row(compared[0])).cwiseAbs().maxCoeff()
            <= 1e-6 * scale + 2.0 * table.textRounding();
    if (same)
        return sameRowMatch(c);

    // RoPE's repeated columns, before the sinusoid: a RoPE table's pairs are no sine and cosine.
    const double repeatTolerance = 4.0 * 0x1p-23 + 2.0 * table.textRounding();
    if (const auto layout = RopeFit::repeatedLayout(*sample, framing, repeatTolerance)) {
        const auto rope = RopeFit::fit(*sample, framing, *layout, declared.ropeLayout, format, table.storedType(),
                                       table.textRounding());
        if (rope && explains(rope->score, rope->bad()))
            return ropeMatch(c, *rope);
    }
    const auto sinusoid = SinusoidalFit::fit(*sample, framing, format, table.storedType(), table.textRounding());
    if (sinusoid && explains(sinusoid->score, sinusoid->bad()))
        return sinusoidalMatch(c, *sinusoid);

    const LearnedFit::Structure structure = LearnedFit::analyse(*sample);
    if (structure.learned)
        return learnedMatch(c, structure, sinusoid);
    unknown.diagnosis = CheckDiagnosis::unknown(structure);
    if (sinusoid && sinusoid->score.relativeResidual() < 0.1)
        unknown.notes.append(CheckDiagnosis::nearestSinusoid(sinusoid->hypothesis, sinusoid->score));
    return unknown;
}

} // namespace posenc::TableCheck
