// ALiBi's bias tensors (AlibiBiasTensors.h).
#include "check/alibi/AlibiBiasTensors.h"
#include "check/DeclaredWords.h"

#include "check/CellTolerance.h"
#include "check/MaskFill.h"
#include "check/TensorShapes.h"
#include "check/alibi/AlibiKeysCountedOff.h"
#include "check/alibi/AlibiSlopeVector.h"
#include "core/NumberText.h"
#include "core/Params.h"
#include "core/alibi/AlibiSlopes.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace posenc::AlibiBiasTensors {

namespace {

// Each slice's ALiBi slope, read where every mask has it, a left padding's too (MaskRegion.h): the
// last row's key before the query, column L − 2, holds -m. A slice whose rows hold a constant
// (RowConstant: BLOOM's m·j, MPT's m·(j − L + 1), not 0 at the query's own key) is read over the
// last row's unmasked keys, (cell (L−1, L−1) − cell (L−1, k)) / (L − 1 − k), where the rounding of
// the cells' larger values is spread over those keys.
// `format` is the format the rows' values are held in (MaskFill::valuesFormat): a slope read from
// bfloat16 cells carries their rounding.
std::optional<std::vector<double>> headSlopes(const TableRows &rows, std::int64_t count, std::int64_t length,
                                              ValueFormat &format)
{
    if (length < 2 || rows.cols() != length)
        return std::nullopt;
    std::vector<double> slopes;
    std::vector<float> row(static_cast<std::size_t>(rows.cols()));
    std::vector<float> cells;
    QString error;
    for (std::int64_t s = 0; s < count; ++s) {
        if (!rows.read(s * length + length - 1, 1, row.data(), error))
            return std::nullopt;
        cells.insert(cells.end(), row.begin(), row.end());
        const float own = row[std::size_t(length - 1)];
        if (!std::isfinite(own) || own == 0.0f) {
            slopes.push_back(-double(row[std::size_t(length - 2)]));
            continue;
        }
        std::int64_t k = 0;
        while (k < length - 2 && !std::isfinite(row[std::size_t(k)]))
            ++k;
        slopes.push_back((double(own) - double(row[std::size_t(k)])) / double(length - 1 - k));
    }
    format = MaskFill::valuesFormat(cells.data(), std::int64_t(cells.size()));
    return slopes;
}

// The rounding the slopes' cells carry: a float32 file of a half-precision pipeline's bias
// (numpy has no bfloat16: a bfloat16 tensor reaches a .npy as .float().numpy()) holds its values,
// and its slopes are that format's roundings of get_slopes', as a bfloat16 file's would be.
StoredType roundingOf(StoredType stored, const std::vector<float> &cells)
{
    if (stored != StoredType::Float32 && stored != StoredType::Float64)
        return stored;
    switch (representableFormat(cells.data(), std::int64_t(cells.size()))) {
    case ValueFormat::BFloat16:
        return StoredType::BFloat16;
    case ValueFormat::Float16:
        return StoredType::Float16;
    case ValueFormat::Float32:
        break;
    }
    return stored;
}

// The rounding of slopes read from cells held in `format`: that format's where the file is wider.
StoredType roundingOf(StoredType stored, ValueFormat format)
{
    if (stored != StoredType::Float32 && stored != StoredType::Float64)
        return stored;
    return format == ValueFormat::BFloat16 ? StoredType::BFloat16
        : format == ValueFormat::Float16   ? StoredType::Float16
                                           : stored;
}

std::vector<float> cellsOf(const std::vector<double> &values, double sign)
{
    std::vector<float> cells;
    for (const double v : values)
        cells.push_back(float(sign * v));
    return cells;
}

// Whether every head's row 0 masks the key after the query (column 1): a causal bias, which alone
// has a direction to take the wrong way round (a two-sided one, |i − j|, has none). A fill by the
// one rule (MaskFill::is), at the precision of the heads' first and last rows' values.
bool masksAfter(const TableRows &rows, std::int64_t count, std::int64_t length)
{
    const auto cols = std::size_t(rows.cols());
    if (cols < 2)
        return false;
    std::vector<float> cells(2 * cols * std::size_t(count));
    QString error;
    for (std::int64_t s = 0; s < count; ++s) {
        float *first = cells.data() + 2 * cols * std::size_t(s);
        if (!rows.read(s * length, 1, first, error) || !rows.read(s * length + length - 1, 1, first + cols, error))
            return false;
    }
    const ValueFormat format = MaskFill::valuesFormat(cells.data(), std::int64_t(cells.size()));
    for (std::int64_t s = 0; s < count; ++s) {
        if (!MaskFill::is(double(cells[2 * cols * std::size_t(s) + 1]), format))
            return false;
    }
    return true;
}

// Slopes all negative whose negations are get_slopes(H)'s: every head's bias taken with the offset
// as query − key, m (i − j) where ALiBi's is m (j − i) (the mistake relative-position-reversed, as
// a head's table reads it: AlibiTableCheck). `what` says where the slopes were read.
std::optional<TableMatch> reversedSlopes(const std::vector<double> &slopes, StoredType stored, std::int64_t heads,
                                         const QString &what)
{
    if (slopes.empty() || !std::all_of(slopes.begin(), slopes.end(), [](double m) { return m < 0.0; }))
        return std::nullopt;
    std::vector<double> negated;
    for (const double m : slopes)
        negated.push_back(-m);
    TableMatch m = AlibiSlopeVector::check(negated, stored, heads);
    if (m.verdict != CheckVerdict::Correct)
        return std::nullopt;
    m.markRelativeReversed(
        u"every head's %1 is get_slopes(%2)'s slope with the other sign: the bias m (i − j), the offset taken as "
        "query − key, where ALiBi's is m (j − i), the key's position minus the query's (BLOOM's build_alibi_tensor), "
        "so it favours the keys farthest in the past"_s.arg(what)
            .arg(heads));
    return m;
}

// Each slice's finite cells against get_slopes(H)'s bias −m |i − j| (the head's slope m; a slice
// of a batch is head s mod H): the one constant by which every cell of the slice differs from it.
// The constant is read where the reference is 0 (the query's own key, exact in every format: m · 0),
// and every other cell held to it within the rounding of a faithful computation in the cells'
// format, which grows with the cell: the slope's float32 computation (AlibiSlopeVector::float32Error:
// BLOOM's and vLLM's float32 torch.pow, its error k-fold the base's rounding at the power k; or
// bfloat16's rounding), the product and the sum with the constant each rounded once. Nothing where a slice's
// cells differ by more than one constant, or where no slice differs at all. `causal` is set where
// no slice holds a key after its query unmasked (j > i).
std::optional<std::vector<double>> headConstants(const TableRows &rows, std::int64_t count, std::int64_t length,
                                                 std::int64_t heads, bool &causal)
{
    causal = true;
    std::vector<float> cells(std::size_t(length * length));
    std::vector<double> constants;
    bool differs = false;
    QString error;
    for (std::int64_t s = 0; s < count; ++s) {
        if (!rows.read(s * length, length, cells.data(), error))
            return std::nullopt;
        const ValueFormat format = MaskFill::valuesFormat(cells.data(), std::int64_t(cells.size()));
        const double unit = halfUnit(format);
        const double m = AlibiSlopes::of(heads, s % heads + 1);
        const double slopeError = AlibiSlopeVector::float32Error(heads, s % heads + 1);
        const auto kept = [&](std::int64_t i, std::int64_t j) {
            const double v = double(cells[std::size_t(i * length + j)]);
            return std::isfinite(v) && !MaskFill::is(v, format);
        };
        std::optional<double> c;
        for (std::int64_t i = 0; i < length && !c; ++i) {
            if (kept(i, i))
                c = double(cells[std::size_t(i * length + i)]);
        }
        if (!c)
            return std::nullopt;
        for (std::int64_t i = 0; i < length; ++i) {
            for (std::int64_t j = 0; j < length; ++j) {
                if (!kept(i, j))
                    continue;
                causal = causal && j <= i;
                const double v = double(cells[std::size_t(i * length + j)]);
                const double reference = -m * double(std::llabs(i - j));
                const double rounding = (slopeError + 3.0 * unit) * std::max(std::fabs(reference), std::fabs(v))
                    + 2.0 * unit * std::fabs(*c);
                if (!(std::fabs(v - reference - *c) <= rounding))
                    return std::nullopt;
            }
        }
        differs = differs || *c != 0.0;
        constants.push_back(*c);
    }
    if (!differs)
        return std::nullopt;
    return constants;
}

// A stack whose every head is the reference plus a constant of its own: correct up to those
// constants, which are said, and that the softmax cancels them (a constant per head is one per
// query row). Where every head's constant is −k m for one integer k in a causal stack (no key after
// its query), the distances are said to be taken k keys off (vLLM's paged attention decode biased
// key j of query n by m (j − n) where ALiBi's is m (j − n + 1), vllm-project/vllm#945); else each
// head's constant: over −m |i − j| on both sides of the query, a key offset is no constant.
void nameHeadConstants(TableMatch &m, const std::vector<double> &constants, std::int64_t heads, bool causal,
                       ValueFormat format)
{
    const auto shown = std::min<std::int64_t>(heads, std::ssize(constants));
    // −k m rounded to the cells' format (bfloat16's −m is m to a half unit of 2^-9).
    const double agreement = 1e-3 + 4.0 * halfUnit(format);
    std::optional<double> k;
    for (std::int64_t h = 0; h < std::ssize(constants); ++h) {
        const double kh = -constants[std::size_t(h)] / AlibiSlopes::of(heads, h % heads + 1);
        if (!k)
            k = kh;
        if (std::fabs(kh - *k) > agreement * std::max(1.0, std::fabs(*k))) {
            k.reset();
            break;
        }
    }
    const double whole = k ? std::round(*k) : 0.0;
    const bool shifted = causal && k && whole != 0.0 && std::fabs(*k - whole) <= agreement * std::fabs(whole);
    QStringList perHead;
    for (std::int64_t h = 0; h < shown && perHead.size() < 8; ++h)
        perHead.append(u"head %1 %2"_s.arg(h + 1).arg(NumberText::compact(constants[std::size_t(h)], 6)));
    if (shown > perHead.size())
        perHead.append(u"… (%1 heads)"_s.arg(shown));
    const QString cancels
        = u"; a constant on every cell of a head is a constant on each query's row, which the softmax over the keys "
          "cancels: the attention weights are the reference's (in exact arithmetic), an equivalent bias, not the "
          "reference's tensor cell for cell"_s;
    // Equivalent after the softmax (issue 56: a per-row or per-head constant is no mistake): the
    // reference up to a constant per query row, correct as a table of one constant per row is
    // (RowConstant, BLOOM's m·j), the constants named.
    m.verdict = CheckVerdict::Correct;
    m.mistakes.clear();
    m.correctAgainst = u"get_slopes(%1)'s bias (ofirpress/attention_with_linear_biases), head by head, up to a "
                       "constant per head, which the softmax cancels"_s.arg(heads);
    if (shifted) {
        const auto n = std::int64_t(whole);
        const QString keys = u"%1 key%2"_s.arg(std::llabs(n)).arg(std::llabs(n) == 1 ? QString() : u"s"_s);
        // vLLM's decode took the distance one key short: the bias one slope below the reference's.
        const QString vllm = n == 1 ? u", as vLLM's paged attention decode biased key j of the query at n by slope · "
                                      "(j − n) where its fix (vllm-project/vllm#945) gives slope · (j − n + 1)"_s
                                    : QString();
        m.diagnosis = u"every head's bias is the reference's %1 %2 times its slope (%3): the distance taken %4 off, "
                      "m (j − i %5 %6) where ALiBi's is m (j − i)%7%8"_s.arg(n > 0 ? u"minus"_s : u"plus"_s)
                          .arg(std::llabs(n))
                          .arg(perHead.join(u", "_s), keys, n > 0 ? u"−"_s : u"+"_s)
                          .arg(std::llabs(n))
                          .arg(vllm, cancels);
        return;
    }
    m.diagnosis = u"every head's bias is the reference's plus a constant of its own (%1), %2"_s.arg(
                      perHead.join(u", "_s),
                      causal ? u"no multiple of its slope that one key offset gives"_s
                             : u"on the keys before and after the query alike, where a key offset would move "
                               "−m |i − j| up on one side and down on the other"_s)
        + cancels;
}

} // namespace

std::optional<TableMatch> keyBiases(const std::vector<std::int64_t> &shape, const TableRows &rows,
                                    std::optional<std::int64_t> heads)
{
    const std::int64_t length = shape.back();
    const std::int64_t count = rows.rows();
    if (length < 2 || count < 1 || count > AlibiParams::kMaxHeads * 64)
        return std::nullopt;
    std::vector<float> row(static_cast<std::size_t>(length));
    std::vector<double> slopes;
    QString error;
    // BLOOM: m·j (keys from 0); MPT: m·(j − (L − 1)) (the last key 0).
    std::optional<bool> bloom;
    bool halfRows = true; // every row's values bfloat16's or float16's
    // BLOOM's rows of a left-padded batch: build_alibi_tensor's positions are
    // ((attention_mask.cumsum(-1) − 1) · attention_mask), 0 at the padding and at the first real
    // key, then j − p (p padded keys): the row is 0 up to key p and m · (j − p) after.
    std::vector<std::int64_t> padding;
    std::optional<double> queryAt; // MPT's rows counted off (AlibiKeysCountedOff), one c for all
    for (std::int64_t r = 0; r < count; ++r) {
        if (!rows.read(r, 1, row.data(), error))
            return std::nullopt;
        const bool fromZero = row[0] == 0.0f;
        if (bloom && *bloom != fromZero)
            return std::nullopt;
        bloom = fromZero;
        std::int64_t pad = 0;
        while (fromZero && pad + 1 < length && row[std::size_t(pad + 1)] == 0.0f)
            ++pad;
        if (pad + 1 >= length)
            pad = 0; // a row of zeros: no bias (AlibiSlopeVector's kBiasZero), no padding read
        padding.push_back(pad);
        double offset = fromZero ? -double(pad) : -double(length - 1);
        const ValueFormat format = rows.storedType() == StoredType::Float32 || rows.storedType() == StoredType::Float64
            ? representableFormat(row.data(), length)
            : storedFormat(rows.storedType());
        if (!fromZero && row.back() != 0.0f) {
            const auto c = AlibiKeysCountedOff::queryPast(row.data(), length, rows.storedType());
            if (!c || (queryAt && *queryAt != *c))
                return std::nullopt;
            offset = -*(queryAt = c);
        } else if (queryAt) {
            return std::nullopt;
        }
        // m read from the key one from the origin (BLOOM's key 1, MPT's key L − 2): in a half
        // format, the slope itself rounded once, whether the product was float32's then .to(dtype)
        // (build_alibi_tensor, build_mpt_alibi_tensor) or the slope's bfloat16 times j, each
        // rounded; a float32 row's from its farthest key, where the rounding is spread widest.
        const bool half = format != ValueFormat::Float32 && !queryAt;
        halfRows = halfRows && half;
        const double m = fromZero ? double(row[std::size_t(half ? pad + 1 : length - 1)]) / double(half ? 1 : length - 1 - pad)
            : queryAt             ? double(row[0]) / offset
                                  : -double(row[std::size_t(half ? length - 2 : 0)]) / double(half ? 1 : length - 1);
        // Each cell m·j rounded as the row's values are, m read from a rounded cell, and in a half
        // format the slope rounded before the product: three of that rounding's half units.
        const double relative = std::max(1e-6, 3.0 * halfUnit(format) + 1e-7);
        for (std::int64_t j = 0; j < length; ++j) {
            const double exact = j < pad ? 0.0 : m * (double(j) + offset);
            if (std::fabs(double(row[std::size_t(j)]) - exact) > relative * std::fabs(exact) + 1e-30)
                return std::nullopt;
        }
        slopes.push_back(m);
    }
    // Heads repeated per batch (BLOOM's [B·H, 1, L]): H declared, or the heads' axis of MPT's
    // [B, H, 1, L] (batch 1 included: its own form, build_mpt_alibi_tensor), or else the rows' period
    // (the slopes repeating every H rows), a guess from the values.
    const std::vector<std::int64_t> dims = TensorShapes::notOne(shape);
    const bool headsAxis = shape.size() >= 4 && shape[shape.size() - 2] == 1;
    std::int64_t h = heads.value_or(headsAxis              ? shape[shape.size() - 3]
                                        : dims.size() >= 3 ? dims[dims.size() - 2]
                                                           : count);
    const auto repeats = [&](std::int64_t period) {
        for (std::int64_t r = period; r < count; ++r) {
            // A padded row's slope is read over fewer keys: its float32 rounding another's.
            const double a = slopes[std::size_t(r)], b = slopes[std::size_t(r % period)];
            if (!(std::fabs(a - b) <= 2e-6 * std::fabs(b)))
                return false;
        }
        return true;
    };
    // Every row zero (no bias at all): every period repeats; the heads are the rows of one batch.
    const bool zero = std::all_of(slopes.begin(), slopes.end(), [](double m) { return m == 0.0; });
    if (zero && !heads)
        h = dims.size() >= 2 ? dims[dims.size() - 2] : count;
    if (!heads && !zero && dims.size() < 3 && !headsAxis) {
        for (std::int64_t p = 1; p < count; ++p) {
            if (count % p == 0 && repeats(p)) {
                h = p;
                break;
            }
        }
    }
    // The declared heads whose batches the rows are not (another count of rows than a multiple of H,
    // or rows that do not repeat by H): the rows' own heads, their period or every row, held to the
    // declared H as a slope vector of another count is (AlibiSlopeVector::check: a tensor-parallel
    // rank's share of get_slopes(H) a variant naming its heads, get_slopes(n) alibi-head-count).
    const std::int64_t against = h;
    if (heads && (h < 1 || count % h != 0 || !repeats(h))) {
        h = count;
        for (std::int64_t p = 1; p < count; ++p) {
            if (count % p == 0 && repeats(p)) {
                h = p;
                break;
            }
        }
    }
    if (h < 1 || count % h != 0 || !repeats(h))
        return std::nullopt;
    // One padding per batch element: its heads' rows share its attention mask.
    QStringList padded;
    for (std::int64_t r = 0; r < count; ++r) {
        if (padding[std::size_t(r)] != padding[std::size_t(r - r % h)])
            return std::nullopt;
        if (r % h == 0 && padding[std::size_t(r)] > 0)
            padded.append(u"batch %1 %2 keys"_s.arg(r / h).arg(padding[std::size_t(r)]));
    }
    slopes.resize(std::size_t(h));
    // The slopes' rounding: a half format's where every row's values are (the slopes read from the
    // key one from the origin are that format's), else the stored type's.
    const StoredType stored = halfRows ? roundingOf(rows.storedType(), cellsOf(slopes, 1.0)) : rows.storedType();
    const auto reversed = reversedSlopes(slopes, stored, against, u"slope"_s);
    TableMatch m = reversed ? *reversed : AlibiSlopeVector::check(slopes, stored, against);
    // Zeros with nothing declared: no bias at all, which no faithful ALiBi computation gives, but
    // the tensor may be no ALiBi bias either (a model without one): named, not a mistake.
    if (zero && !heads && m.verdict == CheckVerdict::Mistake)
        m.verdict = CheckVerdict::Unknown;
    m.table = u"alibi-key-bias"_s;
    if (count > h)
        m.notes.prepend(u"the rows are %1 batches of %2 heads%3"_s.arg(count / h).arg(h).arg(
            heads ? QString()
                  : u" (a guess from the values: their slopes repeat every %1 rows; --expect alibi --heads N "
                    "declares another H)"_s.arg(h)));
    if (!padded.isEmpty()) {
        const QString words
            = u"left padding read (%1): 0 at the padded keys and at the first real one, then the "
              "slope times j − p, the key's position counted from the first real key, as "
              "build_alibi_tensor's (attention_mask.cumsum(-1) − 1) · attention_mask gives a "
              "left-padded batch (transformers models/bloom/modeling_bloom.py)"_s.arg(padded.join(u", "_s));
        if (m.verdict == CheckVerdict::Correct)
            m.correctAgainst += u", with the batch's left padding"_s;
        m.diagnosis += u"; "_s + words;
    }
    if (queryAt)
        AlibiKeysCountedOff::name(m, *queryAt, length, slopes.front());
    m.notes.prepend(u"%1 rows of %2 keys, each its head's slope times %3 (%4)"_s.arg(count).arg(length).arg(
        *bloom ? u"the key's position j"_s
        : queryAt ? u"j − %1"_s.arg(*queryAt)
                  : u"j − (L − 1)"_s,
        *bloom ? u"BLOOM's build_alibi_tensor"_s : u"MPT's build_mpt_alibi_tensor"_s));
    return m;
}

void declaredKeyBiases(TableMatch &match, const Params &declared)
{
    // No bias at all where ALiBi was declared: no computation of it gives a slope of 0 (the
    // undeclared reading cannot tell it from no ALiBi, and says unknown).
    if (match.mistakes == QStringList {AlibiSlopeVector::kBiasZero} && match.verdict == CheckVerdict::Unknown)
        match.verdict = CheckVerdict::Mistake;
    // Keys counted off (AlibiKeysCountedOff::name): a row of the declared L keys is no slice.
    if (match.mistakes == QStringList {CheckMistakes::kPositionOffset} && match.verdict == CheckVerdict::Unknown) {
        match.verdict = CheckVerdict::Mistake;
        match.diagnosis = match.diagnosis.section(u"; the slopes are"_s, 0, 0)
            + u"; the slopes are get_slopes'"_s;
    }
    if (declared.alibi.mask != AlibiMask::Symmetric || match.verdict == CheckVerdict::Mistake)
        return;
    match.verdict = CheckVerdict::Mistake;
    match.mistakes = {CheckMistakes::kBiasMask};
    match.correctAgainst.clear();
    match.diagnosis = u"alibi causal "_s + DeclaredWords::whereGiven()
        + u" symmetric (bias-mask: the bias differs from the declared one in its mask alone): each row is its "
          "head's slope times the key's position, a key bias that is ALiBi's only under a causal mask (BLOOM's "
          "build_alibi_tensor, added before the causal mask); with a symmetric (bidirectional) mask the keys "
          "after the query get +m (j − i) where −m |i − j| belongs, a bias of the query and the key that no "
          "[H, 1, L] "
          "holds (x-transformers#88); the slopes: "_s
        + match.diagnosis;
}

namespace {

// A slice read alone names the fewest heads whose get_slopes gives its slope ("head 1 of 8" for
// m = 0.5); in a stack whose slopes are get_slopes(H), slice 0 is head 1 of H: its words say so, and
// the note that one head's table cannot tell the heads is dropped (the tensor tells them).
void sayHeadOfStack(TableMatch &m, const TableMatch &first, std::int64_t heads)
{
    std::optional<std::int64_t> head, of;
    for (const MatchField &field : first.findings) {
        if (const auto *n = std::get_if<std::int64_t>(&field.value); n && field.key == u"head"_s)
            head = *n;
        if (const auto *n = std::get_if<std::int64_t>(&field.value); n && field.key == u"heads"_s)
            of = *n;
    }
    if (!head || !of)
        return;
    const QString alone = u"head %1 of %2"_s.arg(*head).arg(*of);
    const QString inStack = u"head 1 of %1"_s.arg(heads);
    m.diagnosis.replace(alone, inStack);
    m.referenceText.replace(alone, inStack);
    m.notes.removeIf([](const QString &note) { return note.startsWith(u"one head's table does not tell"_s); });
}

} // namespace

std::optional<std::pair<std::int64_t, std::int64_t>> headsHeld(const std::vector<std::int64_t> &shape,
                                                               const TableRows &rows, std::int64_t declared)
{
    if (shape.size() < 3)
        return std::nullopt;
    const std::int64_t length = shape[shape.size() - 2], heads = shape[shape.size() - 3];
    ValueFormat format = ValueFormat::Float32;
    const auto slopes = heads >= 1 ? headSlopes(rows, heads, length, format) : std::nullopt;
    if (!slopes || !AlibiSlopeVector::plausible(*slopes))
        return std::nullopt;
    return AlibiSlopeVector::headsHeld(*slopes, roundingOf(rows.storedType(), format), declared);
}

bool combineHeads(const std::vector<std::int64_t> &shape, const TableRows &rows, const std::vector<TableMatch> &slices,
                  TableMatch &combined, std::optional<std::int64_t> declaredHeads)
{
    const auto count = std::int64_t(slices.size());
    const std::int64_t length = shape[shape.size() - 2];
    // The stack's own heads (a rank's share of the declared, or of another count) are what its rows
    // repeat by; the slopes are held to the declared heads.
    const std::int64_t heads = shape[shape.size() - 3];
    const std::int64_t against = declaredHeads.value_or(heads);
    ValueFormat format = ValueFormat::Float32;
    const auto slopes = headSlopes(rows, count, length, format);
    if (!slopes || heads < 1)
        return false;
    TableMatch &m = combined;
    std::vector<double> first(slopes->begin(), slopes->begin() + std::min<std::int64_t>(heads, count));
    const StoredType stored = roundingOf(rows.storedType(), format);
    const auto reversed = masksAfter(rows, std::min<std::int64_t>(heads, count), length)
        ? reversedSlopes(first, stored, heads, u"slope (row L − 1, column L − 2 holds +m)"_s)
        : std::nullopt;
    TableMatch s = reversed ? *reversed : AlibiSlopeVector::check(first, stored, against);
    // Every cell get_slopes' bias plus a constant of its head's, within the cells' rounding: the
    // constants named, whatever the slopes read from one row say (a constant of several units in
    // bfloat16 rounds the last row's cells by more than a small slope times the distance).
    if (!reversed && m.verdict == CheckVerdict::Mistake && m.mistakes.isEmpty()) {
        bool causal = true;
        if (const auto constants = headConstants(rows, count, length, heads, causal)) {
            nameHeadConstants(m, *constants, heads, causal, storedFormat(stored));
            if (s.verdict == CheckVerdict::Correct)
                m.notes.prepend(u"the heads' slopes: "_s + s.diagnosis);
            return true;
        }
    }
    // A run of the declared heads (a tensor-parallel rank's), each slice its head's bias: a variant,
    // the heads said.
    if (s.verdict == CheckVerdict::Variant
        && TensorShapes::verdictRank(m.verdict) <= TensorShapes::verdictRank(CheckVerdict::Variant)) {
        m.verdict = CheckVerdict::Variant;
        m.correctAgainst.clear();
        m.diagnosis = u"the heads' slopes: "_s + s.diagnosis + u"; each head's bias: "_s + slices.front().diagnosis;
        m.referenceText = s.referenceText;
        m.findings = {{u"heads"_s, against}};
        return true;
    }
    if (s.verdict != CheckVerdict::Correct) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = s.mistakes;
        m.correctAgainst.clear(); // a slice's, which the heads together are not
        if (against != heads) // the declared heads' slopes, not the slice's head of its own count
            m.referenceText = s.referenceText;
        m.diagnosis = u"the heads' slopes: "_s + s.diagnosis;
        m.notes.prepend(s.notes.value(0));
        return true;
    }
    // Each head read up to a constant per row (RowConstant): where those are one constant a head, the
    // constants named as above.
    if (TensorShapes::verdictRank(m.verdict) <= TensorShapes::verdictRank(CheckVerdict::Variant) && !reversed
        && slices.front().diagnosis.contains(u"compared up to a constant per query row"_s)) {
        bool causal = true;
        if (const auto constants = headConstants(rows, count, length, heads, causal)) {
            nameHeadConstants(m, *constants, heads, causal, storedFormat(stored));
            m.notes.prepend(u"the heads' slopes: "_s + s.diagnosis);
            m.findings.clear();
            m.findings.append({u"heads"_s, heads});
            return true;
        }
    }
    if (TensorShapes::verdictRank(m.verdict) <= TensorShapes::verdictRank(CheckVerdict::Variant)) {
        m.verdict = CheckVerdict::Correct;
        m.correctAgainst = s.correctAgainst + u", head by head"_s;
        m.diagnosis = s.diagnosis + u"; each head's bias: "_s + slices.front().diagnosis;
        sayHeadOfStack(m, slices.front(), heads);
        m.findings.clear();
        for (const MatchField &field : slices.front().findings) {
            if (field.key != u"heads"_s && field.key != u"head"_s && field.key != u"slope"_s)
                m.findings.append(field);
        }
        m.findings.append({u"heads"_s, heads});
    }
    return false;
}

} // namespace posenc::AlibiBiasTensors
