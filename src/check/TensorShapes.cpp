#include "check/TensorShapes.h"

#include "check/DeclaredWords.h"
#include "check/FamilyCheck.h"
#include "check/RowConstant.h"
#include "core/FamilySpec.h"
#include "core/NumberText.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc::TensorShapes {

namespace {

// A vector longer than any rotary_dim / 2 or heads is no vector this check reads.
constexpr std::int64_t kMaxVector = std::int64_t(1) << 20;
// A stack of more slices is refused: each is identified from a sample of its own.
constexpr std::int64_t kMaxSlices = 65536;

} // namespace

std::vector<std::int64_t> notOne(const std::vector<std::int64_t> &shape)
{
    std::vector<std::int64_t> dims;
    for (const std::int64_t d : shape) {
        if (d != 1)
            dims.push_back(d);
    }
    return dims;
}

namespace {

// The rows [first, first + count) of a table: a slice of a stack.
class SliceRows final : public TableRows
{
public:
    SliceRows(std::shared_ptr<const TableRows> rows, std::int64_t first, std::int64_t count, QString name)
        : m_rows(std::move(rows))
        , m_first(first)
        , m_count(count)
        , m_name(std::move(name))
    { }
    std::int64_t rows() const override { return m_count; }
    std::int64_t cols() const override { return m_rows->cols(); }
    StoredType storedType() const override { return m_rows->storedType(); }
    double textRounding() const override { return m_rows->textRounding(); }
    QString name() const override { return m_name; }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        return m_rows->read(m_first + row0, count, out, error);
    }

private:
    std::shared_ptr<const TableRows> m_rows;
    std::int64_t m_first, m_count;
    QString m_name;
};

// A table of half the columns, each read twice: cat((x, x)) or x's columns interleaved.
class WidenedRows final : public TableRows
{
public:
    WidenedRows(std::shared_ptr<const TableRows> rows, bool interleaved)
        : m_rows(std::move(rows))
        , m_interleaved(interleaved)
    { }
    std::int64_t rows() const override { return m_rows->rows(); }
    std::int64_t cols() const override { return 2 * m_rows->cols(); }
    StoredType storedType() const override { return m_rows->storedType(); }
    double textRounding() const override { return m_rows->textRounding(); }
    QString name() const override { return m_rows->name(); }
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        const std::int64_t half = m_rows->cols();
        std::vector<float> narrow(static_cast<std::size_t>(count * half));
        if (!m_rows->read(row0, count, narrow.data(), error))
            return false;
        for (std::int64_t r = 0; r < count; ++r) {
            const float *in = narrow.data() + r * half;
            float *row = out + r * 2 * half;
            for (std::int64_t c = 0; c < half; ++c) {
                if (m_interleaved) {
                    row[2 * c] = in[c];
                    row[2 * c + 1] = in[c];
                } else {
                    row[c] = in[c];
                    row[half + c] = in[c];
                }
            }
        }
        return true;
    }

private:
    std::shared_ptr<const TableRows> m_rows;
    bool m_interleaved;
};

} // namespace

std::optional<std::pair<std::int64_t, bool>> declaredWidth(Encoding family, const Params &p)
{
    const auto &width = FamilyChecks::of(family).tensors.tableWidth;
    return width ? width(p) : std::nullopt;
}

int verdictRank(CheckVerdict v)
{
    switch (v) {
    case CheckVerdict::Correct:
        return 0;
    case CheckVerdict::Variant:
        return 1;
    case CheckVerdict::Learned:
        return 2;
    case CheckVerdict::Unknown:
        return 3;
    case CheckVerdict::Mistake:
        return 4;
    }
    return 3;
}

Kind kindOf(const std::vector<std::int64_t> &shape)
{
    if (shape.empty())
        return Kind::Refused;
    const std::vector<std::int64_t> dims = notOne(shape);
    // Every shape read has at most four dimensions other than 1 ([B, H, L, D], [3, B, L, D]); a
    // deeper array is none of them, refused rather than cut into slices no reading names.
    if (dims.size() > 4)
        return Kind::Refused;
    // [H, 1, L] is also PyTorch's (max_len, 1, d) buffer: key biases are tried first (rows affine
    // in the key, which no table of positions has), the caller reading a table where they fail.
    const bool keyRows = shape.size() >= 3 && shape[shape.size() - 2] == 1 && shape.back() > 1;
    if (keyRows)
        return Kind::KeyBiases;
    if (shape.size() == 1)
        return Kind::Vector;
    if (shape.size() == 2 || dims.size() == 2)
        return Kind::Table;
    if (dims.size() <= 1)
        return Kind::Vector;
    if (slices(stackShape(shape)) > kMaxSlices)
        return Kind::Refused;
    return Kind::Stack;
}

QString acceptedShapes()
{
    return u"the shapes accepted: a table L x d (dimensions of 1 aside); a vector [n] (RoPE's inv_freq of "
           "rotary_dim / 2, ALiBi's slopes of H heads; also [H, 1, 1], [1, H, 1, 1]); ALiBi's key biases [H, 1, L], "
           "[B·H, 1, L], [1, H, 1, L] (BLOOM, MPT); a stack of tables, each slice checked: [B, L, d] caches, "
           "[H, L, L], [1, H, L, L], [B, H, L, L] biases (T5's position_bias read per bucket; [.., H, q, L] a step "
           "with a cache, its queries the last q of the L keys; [1, H, 1, L] a decode step's one row a head), "
           "[B, H, L, D] and [3, B, L, D] caches (at most %1 slices), 2-D sine maps [C, H, W] and [B, C, H, W] "
           "(DETR's PositionEmbeddingSine and its published forms, a padded batch's images each on its valid "
           "region; LoFTR's PositionEncodingSine, either temp_bug_fix), and DETR's map flattened row-major to "
           "[H·W, C] or [B, H·W, C] with --expect sincos-2d --grid; pairs [.., L, K, 2]: (cos, sin) of one angle "
           "(torch.view_as_real: Meta's freqs_cis, SAM 2's axial freqs_cis) read as the table cat(real, "
           "imaginary), (sin, cos) (an interleaved sinusoid) as the file's rows of 2K; complex64/128 arrays "
           "[L, K], [1, K], [B, L, K] read as cat(real, imaginary)"_s.arg(kMaxSlices);
}

QString shapeText(const std::vector<std::int64_t> &shape)
{
    QStringList parts;
    for (const std::int64_t d : shape)
        parts.append(QString::number(d));
    return u"("_s + parts.join(u", "_s) + (shape.size() == 1 ? u",)"_s : u")"_s);
}

std::variant<std::vector<double>, QString> readVector(const TableRows &rows)
{
    const std::int64_t n = rows.rows() * rows.cols();
    if (n < 1 || n > kMaxVector)
        return u"a vector of %1 values; the vectors read are 1 to %2 long"_s.arg(n).arg(kMaxVector);
    std::vector<float> values(static_cast<std::size_t>(n));
    QString error;
    if (!rows.read(0, rows.rows(), values.data(), error))
        return error;
    for (const float x : values) {
        if (std::isnan(x))
            return u"the vector holds NaN"_s;
    }
    return std::vector<double>(values.begin(), values.end());
}

TableMatch checkVector(const std::vector<double> &v, StoredType stored, const VectorDeclaration &declared)
{
    if (declared.family) {
        if (const auto &reading = FamilyChecks::of(*declared.family).tensors.vector) {
            // No length declared: the length the vector holds, named, where its rope_type's vector
            // depends on it; else (and with a length) the declared parameters as they are.
            if (!declared.lengthGiven && reading->atUnstatedLength) {
                if (auto atLength = reading->atUnstatedLength(v, stored, declared.params))
                    return std::move(*atLength);
            }
            return reading->expect(v, stored, declared.params, declared.heads);
        }
        QStringList readers;
        for (const FamilySpec &family : Families::all()) {
            if (const auto &reading = FamilyChecks::of(family.encoding).tensors.vector)
                readers.append(u"%1 (--expect %2)"_s.arg(reading->what, family.word));
        }
        TableMatch m;
        m.verdict = CheckVerdict::Unknown;
        m.diagnosis = u"a vector is "_s + readers.join(u" or "_s);
        return m;
    }
    // Each family's reading of a vector plausibly its, taken by verdict (correct, mistake, variant,
    // unknown); of equal verdicts the narrower claim (VectorReading::parameterFree), then the list's
    // order. A wrong vector no reading names stays unknown.
    const auto order = [](const TableMatch &m, bool parameterFree) {
        const int verdict = m.verdict == CheckVerdict::Correct ? 0
            : m.verdict == CheckVerdict::Mistake               ? 1
            : m.verdict == CheckVerdict::Variant               ? 2
                                                               : 3;
        return 2 * verdict + (parameterFree == (verdict == 3) ? 1 : 0);
    };
    std::optional<TableMatch> best;
    int bestOrder = 0;
    QStringList what, unknown; // unknown: each plausible reading that names nothing, and why
    for (const FamilySpec &family : Families::all()) {
        const auto &reading = FamilyChecks::of(family.encoding).tensors.vector;
        if (!reading)
            continue;
        what.append(u"%1 (%2)"_s.arg(reading->what, reading->range));
        if (!reading->plausible(v))
            continue;
        TableMatch m = reading->identify(v, stored);
        if (m.verdict == CheckVerdict::Unknown && !m.diagnosis.isEmpty())
            unknown.append(u"as %1 (--expect %2): %3"_s.arg(reading->what, family.word, m.diagnosis));
        const int o = order(m, reading->parameterFree);
        if (!best || o < bestOrder) {
            best = std::move(m);
            bestOrder = o;
        }
    }
    TableMatch m = best.value_or(TableMatch());
    if (m.verdict == CheckVerdict::Correct || m.verdict == CheckVerdict::Mistake || m.verdict == CheckVerdict::Variant)
        return m;
    m.verdict = CheckVerdict::Unknown;
    if (!best)
        m.diagnosis = u"a vector of %1 values that is neither %2"_s.arg(v.size()).arg(what.join(u" nor "_s));
    else if (unknown.size() > 1 && m.mistakes.isEmpty())
        m.diagnosis = u"no reading names these %1 values: %2"_s.arg(v.size()).arg(unknown.join(u"; "_s));
    return m;
}

void nameByReferenceVector(TableMatch &match, const std::vector<double> &v, StoredType stored,
                           const std::vector<double> &reference, StoredType referenceStored,
                           std::optional<std::int64_t> heads)
{
    if (match.verdict != CheckVerdict::Mistake || !match.mistakes.isEmpty())
        return;
    const TableMatch form = checkVector(reference, referenceStored, {std::nullopt, Params(), heads});
    if (!form.family || !form.params)
        return;
    // The heads the reference reads as (a tensor-parallel rank's run of get_slopes(32) is 32 heads'),
    // where none were declared.
    std::optional<std::int64_t> formHeads = heads;
    for (const MatchField &field : form.findings) {
        if (const auto *n = std::get_if<std::int64_t>(&field.value); n && field.key == u"heads"_s && !formHeads)
            formHeads = *n;
    }
    const DeclaredWords::Scope words(DeclaredWords::By::ReferenceTable);
    // The reference's reading holds its own length (LongRoPE's short list at most the original
    // length, its long list past it; dynamic's base at the length it grew for): the vector is
    // compared at that one, where its other list is longrope-factor-set.
    const TableMatch against = checkVector(v, stored, {form.family, *form.params, formHeads, true});
    // The reference is itself a named mistake of a family's parameters (an inv_freq rounded to bfloat16,
    // slopes off by one) and the vector those parameters' own: the reference, not the vector, holds
    // it. The vector still deviates from the file declared, so the verdict stands.
    if (form.verdict == CheckVerdict::Mistake && !form.mistakes.isEmpty() && against.verdict == CheckVerdict::Correct) {
        match.mistakes = form.mistakes;
        match.diagnosis = u"the reference table holds the mistake, not the vector: read without a declaration, the "
                          "reference is a mistake (%1): %2; the vector is correct at the parameters the reference "
                          "reads as: %3"_s.arg(form.mistakes.join(u", "_s), form.diagnosis, against.diagnosis);
        return;
    }
    if (form.verdict != CheckVerdict::Correct && form.verdict != CheckVerdict::Variant)
        return;
    if (against.verdict != CheckVerdict::Mistake || against.mistakes.isEmpty())
        return;
    match.mistakes = against.mistakes;
    // The unexplained sentence it replaces is not kept: the deviating values are said above it.
    match.diagnosis = u"the reference table reads, without a declaration, as %1; against it, %2"_s.arg(
        form.referenceText, against.diagnosis);
}

namespace {

// Key biases of a declared family whose rows its reading does not hold: read as the shape says (a
// row per head over the keys), never as a table of other rows, and said so. A row of one value
// at every key favours no key after the softmax (RowConstant::kFollowsQuery).
TableMatch notKeyBiases(const std::vector<std::int64_t> &shape, const TableRows &rows, Encoding declared,
                        std::optional<std::int64_t> heads)
{
    TableMatch m;
    m.verdict = CheckVerdict::Mistake;
    m.family = declared;
    m.unreferenced = u"the rows are no key biases of the declared family"_s;
    const std::int64_t keys = rows.cols();
    std::vector<float> row(static_cast<std::size_t>(keys));
    QString error;
    std::int64_t constantRows = 0, affineRows = 0;
    QString firstRow;
    for (std::int64_t r = 0; r < rows.rows(); ++r) {
        if (!rows.read(r, 1, row.data(), error))
            break;
        const bool constant = std::all_of(row.begin(), row.end(), [&](float v) { return v == row.front(); });
        constantRows += constant ? 1 : 0;
        const double step = keys > 1 ? (double(row.back()) - double(row.front())) / double(keys - 1) : 0.0;
        const double scale = std::max(std::fabs(double(row.front())), std::fabs(double(row.back())));
        bool affine = true;
        for (std::int64_t j = 0; j < keys && affine; ++j)
            affine = std::fabs(double(row[std::size_t(j)]) - (double(row.front()) + step * double(j))) <= 1e-5 * scale;
        affineRows += affine && !constant ? 1 : 0;
        // The row said: the first that is not affine in the key, else row 0.
        if (r == 0 || (!affine && affineRows + constantRows == r))
            firstRow = u"row %5 holds %1 at key 0, %2 at key 1 and %3 at key %4"_s
                           .arg(NumberText::compact(double(row[0]), 6),
                                NumberText::compact(double(row[std::min<std::size_t>(1, row.size() - 1)]), 6),
                                NumberText::compact(double(row.back()), 6))
                           .arg(keys - 1)
                           .arg(r);
    }
    const QString what = u"%1 rows of %2 keys (shape %3), each a head's bias over the keys, which %4 gives as its "
                         "head's slope times the key's position (affine in the key)"_s.arg(rows.rows())
                             .arg(keys)
                             .arg(shapeText(shape), Families::spec(declared).heading);
    if (constantRows == rows.rows()) {
        m.mistakes = {RowConstant::kFollowsQuery};
        m.diagnosis = u"%1; every row holds one value at every key (%2): a bias the softmax over the keys cancels, "
                      "which favours no key and carries no position"_s.arg(what, firstRow);
    } else if (affineRows == rows.rows()) {
        m.diagnosis = u"%1; each row is affine in the key, but their slopes are no %2 heads' (the rows' count or "
                      "period against the heads declared)"_s.arg(what, heads ? QString::number(*heads) : u"H"_s);
    } else {
        m.diagnosis = u"%1; %2, no such row (the slopes cannot be read)"_s.arg(what, firstRow);
    }
    return m;
}

} // namespace

std::optional<TableMatch> keyBiases(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                    std::optional<std::int64_t> heads, std::optional<Encoding> declared)
{
    for (const FamilySpec &family : Families::all()) {
        const auto &bias = FamilyChecks::of(family.encoding).tensors.headBias;
        if ((declared && *declared != family.encoding) || !bias || !bias->keyBiases)
            continue;
        if (auto read = bias->keyBiases(shape, rows, heads))
            return read;
    }
    if (declared && readsKeyBiases(*declared))
        return notKeyBiases(shape, rows, *declared, heads);
    return std::nullopt;
}

bool readsKeyBiases(Encoding family)
{
    const auto &bias = FamilyChecks::of(family).tensors.headBias;
    return bias && bias->keyBiases;
}

std::optional<std::int64_t> flagHeads(const Params &params)
{
    for (const FamilySpec &family : Families::all()) {
        if (const auto &bias = FamilyChecks::of(family.encoding).tensors.headBias)
            return bias->heads(params);
    }
    return std::nullopt;
}

std::vector<std::int64_t> stackShape(const std::vector<std::int64_t> &shape)
{
    const std::vector<std::int64_t> dims = notOne(shape);
    if (shape.size() >= 3 && shape[shape.size() - 2] == 1 && dims.size() >= 3 && dims.back() == shape.back())
        return dims;
    return shape;
}

std::int64_t slices(const std::vector<std::int64_t> &shape)
{
    std::int64_t n = 1;
    for (std::size_t i = 0; i + 2 < shape.size(); ++i)
        n *= shape[i];
    return n;
}

QString sliceLabel(const std::vector<std::int64_t> &shape, std::int64_t index)
{
    QStringList parts;
    std::int64_t rest = index;
    std::vector<std::int64_t> at(shape.size() >= 2 ? shape.size() - 2 : 0);
    for (std::size_t k = at.size(); k-- > 0;) {
        at[k] = rest % shape[k];
        rest /= shape[k];
    }
    for (const std::int64_t i : at)
        parts.append(QString::number(i));
    return u"["_s + parts.join(u", "_s) + u"]"_s;
}

std::shared_ptr<const TableRows> slice(std::shared_ptr<const TableRows> rows, std::int64_t index, std::int64_t length,
                                       const QString &label)
{
    const QString name = rows->name() + label;
    return std::make_shared<SliceRows>(std::move(rows), index * length, length, name);
}

SliceHeads sliceHeads(const HeadBiasReading *bias, const std::vector<std::int64_t> &stacked, const TableRows &rows,
                      std::optional<std::int64_t> declared, bool ownHeads)
{
    const std::int64_t own = stacked.size() >= 3 ? stacked[stacked.size() - 3] : 1;
    SliceHeads h {declared.value_or(own), -1, own};
    if (bias && declared && *declared != own && bias->headsHeld && ownHeads) {
        if (const auto held = bias->headsHeld(stacked, rows, *declared))
            h = {held->first, held->second, own};
    }
    return h;
}

TableMatch combine(const std::vector<std::int64_t> &shape, const TableRows &rows, std::vector<TableMatch> matches,
                   bool ownHeads, std::optional<std::int64_t> declaredHeads)
{
    const auto count = std::int64_t(matches.size());
    std::int64_t worst = 0;
    for (std::int64_t i = 1; i < count; ++i) {
        if (verdictRank(matches[std::size_t(i)].verdict) > verdictRank(matches[std::size_t(worst)].verdict))
            worst = i;
    }
    TableMatch m = matches[std::size_t(worst)];
    const std::int64_t length = shape.size() >= 2 ? shape[shape.size() - 2] : 0;
    const bool square = shape.size() >= 3 && length == shape.back();
    // A stack of per-head maps that are all one family's: its heads checked together.
    const std::optional<Encoding> family = matches.front().family;
    const bool oneFamily = family
        && std::all_of(matches.begin(), matches.end(), [&](const TableMatch &x) { return x.family == family; });
    const auto *bias = oneFamily ? &FamilyChecks::of(*family).tensors.headBias : nullptr;
    // A slice whose bias follows the query holds no slope to check (RowConstant).
    const bool followsQuery = std::any_of(matches.begin(), matches.end(), [](const TableMatch &x) {
        return x.mistakes.contains(RowConstant::kFollowsQuery);
    });
    const bool heads = ownHeads && square && bias && *bias && (*bias)->combineHeads && !followsQuery;
    const bool headsVerdict = heads && (*bias)->combineHeads(shape, rows, matches, m, declaredHeads);
    const QString label = sliceLabel(shape, worst);
    m.notes.prepend(u"%1 slices of %2 x %3 (shape %4), each checked as a table; %5"_s.arg(count)
                        .arg(length)
                        .arg(shape.back())
                        .arg(shapeText(shape),
                             m.verdict == CheckVerdict::Correct
                                 ? u"every one correct"_s
                                 : u"the first of the worst verdict: slice %1"_s.arg(label)));
    if (m.verdict != CheckVerdict::Correct && !headsVerdict)
        m.diagnosis = u"slice %1: %2"_s.arg(label, m.diagnosis);
    if (m.worstRow && !heads)
        m.worstRow = *m.worstRow + worst * length;
    return m;
}

bool columnsRepeatInPairs(const TableRows &rows)
{
    const std::int64_t cols = rows.cols(), h = cols / 2;
    const std::int64_t count = std::min<std::int64_t>(rows.rows(), 256);
    if (cols < 2 || cols % 2 != 0 || count < 2)
        return false;
    std::vector<float> values(std::size_t(count * cols));
    QString error;
    if (!rows.read(0, count, values.data(), error))
        return false;
    const double tolerance = 4.0 * 0x1p-23 + 2.0 * rows.textRounding();
    const auto repeats = [&](bool halves) {
        bool moves = false;
        for (std::int64_t r = 0; r < count; ++r) {
            const float *row = values.data() + r * cols;
            for (std::int64_t i = 0; i < h; ++i) {
                const float a = halves ? row[i] : row[2 * i];
                const float b = halves ? row[h + i] : row[2 * i + 1];
                if (!(std::fabs(double(a) - double(b)) <= tolerance * std::max(1.0, std::fabs(double(a)))))
                    return false;
                // Not one value throughout (row 0 of a cos table is all 1): the pairs hold values that
                // differ down the rows or along a row (a row repeated, same-row's, still repeats them).
                moves = moves || row[i] != values[0];
            }
        }
        return moves;
    };
    return repeats(true) || repeats(false);
}

bool halfWidth(Encoding family, const Params &declared, std::int64_t cols)
{
    const auto width = declaredWidth(family, declared);
    return width && cols >= 1 && width->first == 2 * cols;
}

std::shared_ptr<const TableRows> widened(std::shared_ptr<const TableRows> rows, Encoding family, const Params &declared)
{
    const auto width = declaredWidth(family, declared);
    return std::make_shared<WidenedRows>(std::move(rows), width && width->second);
}

QStringList mistakeIds()
{
    QStringList ids;
    for (const FamilySpec &family : Families::all())
        ids += FamilyChecks::of(family.encoding).tensors.mistakes;
    return ids;
}

void weighChannelsFirst(TableMatch &match, const std::vector<std::int64_t> &shape, const TableRows &rows)
{
    const std::vector<std::int64_t> dims = notOne(shape);
    if (match.verdict != CheckVerdict::Mistake || dims.size() < 3 || dims.size() > 4 || dims.back() != shape.back())
        return;
    const std::int64_t height = dims[dims.size() - 2], width = dims.back();
    if (height < 2 || width < 2 || rows.cols() != width || rows.rows() % height != 0)
        return;
    // Each slice: alike along its rows (varies down the rows alone), along its columns, or neither.
    std::int64_t byRow = 0, byColumn = 0;
    std::vector<float> cells(static_cast<std::size_t>(height * width));
    for (std::int64_t slice = 0; slice < rows.rows() / height; ++slice) {
        QString error;
        if (!rows.read(slice * height, height, cells.data(), error))
            return;
        bool rowsAlike = true, columnsAlike = true;
        for (std::int64_t y = 0; y < height && (rowsAlike || columnsAlike); ++y)
            for (std::int64_t x = 0; x < width; ++x) {
                const float v = cells[std::size_t(y * width + x)];
                rowsAlike = rowsAlike && v == cells[std::size_t(y * width)];
                columnsAlike = columnsAlike && v == cells[std::size_t(x)];
            }
        if (rowsAlike == columnsAlike)
            return;
        byRow += rowsAlike ? 1 : 0;
        byColumn += columnsAlike ? 1 : 0;
    }
    if (byRow == 0 || byColumn == 0)
        return;
    const std::int64_t channels = dims[dims.size() - 3];
    match.notes.prepend(u"read as attention biases [.., H, q, L]: %1%2"_s.arg(
        match.mistakes.isEmpty() ? QString() : u"mistake (%1): "_s.arg(match.mistakes.join(u", "_s)), match.diagnosis));
    match.verdict = CheckVerdict::Unknown;
    match.mistakes.clear();
    match.diagnosis = u"shape %1 reads two ways: as attention biases, whose rows would follow key - query, or as a "
                      "channel-first map of position features, read as a [%2·%3, %4] table, channels first: each "
                      "channel varies along one axis of the grid (%5 down the rows, %6 along the columns), as a 2-D "
                      "sin-cos map's do (DETR's PositionEmbeddingSine, LoFTR's PositionEncodingSine), but no "
                      "published form holds its cells; --expect decides"_s.arg(shapeText(shape))
                          .arg(height)
                          .arg(width)
                          .arg(channels)
                          .arg(byRow)
                          .arg(byColumn);
}

} // namespace posenc::TensorShapes
