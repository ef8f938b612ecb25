#include "check/alibi/AlibiSlopeVector.h"

#include "check/CellTolerance.h"
#include "core/NumberText.h"
#include "core/alibi/AlibiSlopes.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace posenc::AlibiSlopeVector {

namespace {

const QString kGetSlopes = u"get_slopes (ofirpress/attention_with_linear_biases; transformers' build_alibi_tensor, "
                           "MPT's gen_slopes)"_s;

// 2^(-8/P) rounded to float32: its relative rounding δ_P (0 up to P = 8, where the base is a power
// of two).
double baseRounding(std::int64_t power)
{
    const double base = std::pow(2.0, -8.0 / double(power));
    return std::fabs(double(float(base)) / base - 1.0);
}

// Each head's float32Error, for heads first + 1 .. first + count of `heads`.
std::vector<double> errorsOf(std::int64_t heads, std::int64_t first, std::int64_t count)
{
    std::vector<double> errors;
    for (std::int64_t k = 0; k < count; ++k)
        errors.push_back(float32Error(heads, first + k + 1));
    return errors;
}

std::vector<double> errorsOf(std::int64_t heads)
{
    return errorsOf(heads, 0, heads);
}

// A faithful slope: get_slopes' within `error` (float32Error: its float32 computation), then the
// stored rounding: in float16 or bfloat16 two half units, a slope stored so being rounded once, one
// read from a bias's cells of that format carrying their rounding over the keys it was read across
// ((cell (L−1, L−1) − cell (L−1, 0)) / (L − 1), each rounded). get_slopes' heads are 2^(8/H) apart,
// at least 2% up to 256 heads: far past two half units of bfloat16 (0.8%) and float32Error (2.3e-6
// at 256 heads).
double tolerance(double exact, double error, StoredType stored)
{
    double rounding = error * exact;
    if (stored == StoredType::Float16)
        rounding += std::max(2.0 * halfUnit(ValueFormat::Float16) * exact, std::ldexp(1.0, -25));
    else if (stored == StoredType::BFloat16)
        rounding += 2.0 * halfUnit(ValueFormat::BFloat16) * exact;
    return rounding + 1e-300;
}

bool near(double value, double exact, double error, StoredType stored)
{
    return std::fabs(value - exact) <= tolerance(exact, error, stored);
}

// The first head (0-based) whose slope is not `reference`'s (within its head's `errors`), or -1.
std::int64_t firstOff(const std::vector<double> &v, const std::vector<double> &reference,
                      const std::vector<double> &errors, StoredType stored)
{
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!near(v[i], reference[i], errors[i], stored))
            return std::int64_t(i);
    }
    return -1;
}

// The head (1-based) of `reference` whose slope `value` is, or 0.
std::int64_t headOf(double value, const std::vector<double> &reference, const std::vector<double> &errors,
                    StoredType stored)
{
    for (std::size_t i = 0; i < reference.size(); ++i) {
        if (near(value, reference[i], errors[i], stored))
            return std::int64_t(i) + 1;
    }
    return 0;
}

// 2^(-8(k + start)/H) for heads k = 0..H-1: get_slopes' series of a power of two starts at 1.
std::vector<double> geometric(std::int64_t heads, int start = 1)
{
    std::vector<double> slopes;
    for (std::int64_t k = 0; k < heads; ++k)
        slopes.push_back(std::pow(2.0, -8.0 * double(k + start) / double(heads)));
    return slopes;
}

QString listed(const std::vector<double> &v, std::size_t count = 4)
{
    QStringList parts;
    for (std::size_t i = 0; i < std::min(count, v.size()); ++i)
        parts.append(NumberText::compact(v[i], 6));
    return parts.join(u", "_s) + (v.size() > count ? u", ..."_s : QString());
}

TableMatch base(const std::vector<double> &v, std::int64_t heads)
{
    TableMatch m;
    m.family = Encoding::Alibi;
    m.table = kTable;
    m.unreferenced = u"ALiBi's slopes are compared head by head, not streamed as a table"_s;
    m.findings = {{u"heads"_s, heads}};
    Params p;
    p.encoding = Encoding::Alibi;
    p.alibi.heads = std::clamp<std::int64_t>(heads, 1, AlibiParams::kMaxHeads);
    m.params = p;
    m.referenceText = u"get_slopes(%1): %2"_s.arg(heads).arg(listed(AlibiSlopes::all(p.alibi.heads)));
    m.notes.append(u"%1 slopes: %2"_s.arg(v.size()).arg(listed(v)));
    return m;
}

void worst(TableMatch &m, const std::vector<double> &v, const std::vector<double> &reference)
{
    double largest = -1.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double e = std::fabs(v[i] - reference[i]);
        if (e > largest) {
            largest = e;
            m.worstColumn = std::int64_t(i);
        }
    }
    m.maxAbsError = largest;
    m.worstRow = 0;
}

// A run of a larger H's slopes: the heads one tensor-parallel rank holds.
std::optional<std::pair<std::int64_t, std::int64_t>> rankOf(const std::vector<double> &v, std::int64_t heads,
                                                            StoredType stored)
{
    const auto n = std::int64_t(v.size());
    if (heads <= n || heads % n != 0 || heads > AlibiParams::kMaxHeads)
        return std::nullopt;
    const std::vector<double> all = AlibiSlopes::all(heads);
    for (std::int64_t rank = 0; rank < heads / n; ++rank) {
        const std::vector<double> run(all.begin() + rank * n, all.begin() + (rank + 1) * n);
        if (firstOff(v, run, errorsOf(heads, rank * n, n), stored) < 0)
            return std::pair {rank, heads};
    }
    return std::nullopt;
}

// The factor c with v = c × reference head by head (c not 1, every head within its rounding of c
// times get_slopes'), or nothing.
std::optional<double> commonFactor(const std::vector<double> &v, const std::vector<double> &reference,
                                   const std::vector<double> &errors, StoredType stored)
{
    if (v.size() < 2 || v.size() != reference.size() || !(reference.front() > 0.0))
        return std::nullopt;
    const double c = v.front() / reference.front();
    if (!(c > 0.0) || !std::isfinite(c) || near(v.front(), reference.front(), errors.front(), stored))
        return std::nullopt;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!near(v[i], c * reference[i], errors[i], stored))
            return std::nullopt;
    }
    // A whole factor (a layer number) or a simple fraction read as such.
    const double whole = std::round(c);
    return std::fabs(c - whole) <= 1e-5 * c ? whole : c;
}

// The heads whose slope is not get_slopes(n)'s, said whole: "head 33 has slope 0 where get_slopes(40)
// gives 0.917004", or "heads 33..40 (8 of 40) hold 0 where get_slopes(40) gives 0.917004, 0.771105,
// ...; the other heads are get_slopes(40)'s" (llama.cpp#20031: the heads past the power of two never
// written).
QString deviationWords(const std::vector<double> &v, const std::vector<double> &reference,
                       const std::vector<double> &errors, StoredType stored)
{
    const auto n = std::int64_t(v.size());
    std::vector<std::size_t> off;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!near(v[i], reference[i], errors[i], stored))
            off.push_back(i);
    }
    if (off.size() == 1)
        return u"head %1 has slope %2 where get_slopes(%3) gives %4"_s.arg(off.front() + 1)
            .arg(NumberText::compact(v[off.front()], 7))
            .arg(n)
            .arg(NumberText::compact(reference[off.front()], 7));
    QStringList runs;
    for (std::size_t k = 0; k < off.size();) {
        std::size_t end = k;
        while (end + 1 < off.size() && off[end + 1] == off[end] + 1)
            ++end;
        runs.append(end == k ? QString::number(off[k] + 1) : u"%1..%2"_s.arg(off[k] + 1).arg(off[end] + 1));
        k = end + 1;
    }
    if (runs.size() > 4)
        runs = runs.mid(0, 4) << u"..."_s;
    const bool oneValue = std::all_of(off.begin(), off.end(), [&](std::size_t i) { return v[i] == v[off.front()]; });
    QStringList got, want;
    for (std::size_t k = 0; k < std::min<std::size_t>(off.size(), 4); ++k) {
        got.append(NumberText::compact(v[off[k]], 6));
        want.append(NumberText::compact(reference[off[k]], 6));
    }
    if (off.size() > 4) {
        got.append(u"..."_s);
        want.append(u"..."_s);
    }
    const QString held = oneValue ? u"hold %1"_s.arg(NumberText::compact(v[off.front()], 7))
                                  : u"have slopes %1"_s.arg(got.join(u", "_s));
    const QString rest = off.size() < v.size() ? u"; the other heads are get_slopes(%1)'s"_s.arg(n) : QString();
    return u"heads %1 (%2 of %3) %4 where get_slopes(%3) gives %5%6"_s.arg(runs.join(u", "_s))
        .arg(off.size())
        .arg(n)
        .arg(held, want.join(u", "_s), rest);
}

// The fewest heads g < n whose get_slopes(g), repeated every g heads, the vector is: each
// tensor-parallel rank of g heads computing its own g heads' slopes (flashinfer#1606: get_alibi_slopes
// called with the rank's local head count), or 0.
std::int64_t repeatedGroup(const std::vector<double> &v, StoredType stored)
{
    const auto n = std::int64_t(v.size());
    for (std::int64_t g = 1; g < n; ++g) {
        if (n % g != 0)
            continue;
        const std::vector<double> group = AlibiSlopes::all(g);
        const std::vector<double> errors = errorsOf(g);
        bool repeats = true;
        for (std::int64_t i = 0; i < n && repeats; ++i)
            repeats = near(v[std::size_t(i)], group[std::size_t(i % g)], errors[std::size_t(i % g)], stored);
        if (repeats)
            return g;
    }
    return 0;
}

// `m` made correct where `v` is get_slopes(n) or a tensor-parallel rank's run of get_slopes(total)
// for one of `totals`; else false.
bool correctAgainstAny(TableMatch &m, const std::vector<double> &v, StoredType stored,
                       const QList<std::int64_t> &totals)
{
    const auto n = std::int64_t(v.size());
    for (const std::int64_t total : totals) {
        if (total == n && firstOff(v, AlibiSlopes::all(n), errorsOf(n), stored) < 0) {
            worst(m, v, AlibiSlopes::all(n));
            m.verdict = CheckVerdict::Correct;
            m.correctAgainst = u"%1 of %2 heads"_s.arg(kGetSlopes).arg(n);
            m.diagnosis = u"ALiBi's slopes of %1 heads as get_slopes gives them%2"_s.arg(n).arg(
                (n & (n - 1)) == 0 ? u": 2^(-8k/%1), k = 1..%1"_s.arg(n)
                                   : u": the %1 of the power of two below, then every other of twice that"_s.arg(
                                       AlibiSlopes::geometricHeads(n)));
            return true;
        }
        if (const auto rank = rankOf(v, total, stored)) {
            m.verdict = CheckVerdict::Correct;
            m.findings = {{u"heads"_s, total}};
            // The run's own words: the rank's heads of get_slopes(total), not get_slopes(n).
            const std::vector<double> all = AlibiSlopes::all(total);
            m.referenceText = u"heads %1..%2 of get_slopes(%3): %4"_s.arg(rank->first * n + 1)
                                  .arg((rank->first + 1) * n)
                                  .arg(total)
                                  .arg(listed({all.begin() + rank->first * n, all.begin() + (rank->first + 1) * n}));
            m.params->alibi.heads = total;
            m.correctAgainst = u"heads %1..%2 of %3 of %4 heads"_s.arg(rank->first * n + 1)
                                   .arg((rank->first + 1) * n)
                                   .arg(kGetSlopes)
                                   .arg(total);
            m.diagnosis
                = u"ALiBi's slopes of tensor-parallel rank %1 of %2: heads %3..%4 of get_slopes(%5)"_s.arg(rank->first)
                      .arg(total / n)
                      .arg(rank->first * n + 1)
                      .arg((rank->first + 1) * n)
                      .arg(total);
            return true;
        }
    }
    return false;
}

// The first head (0-based) of a run of get_slopes(`heads`) that `v` is, or nothing: its slopes are
// distinct, so a run sits at one place at most.
std::optional<std::int64_t> runStart(const std::vector<double> &v, std::int64_t heads, StoredType stored)
{
    const auto n = std::int64_t(v.size());
    const std::vector<double> all = AlibiSlopes::all(heads);
    for (std::int64_t start = 0; start + n <= heads; ++start) {
        const std::vector<double> run(all.begin() + start, all.begin() + start + n);
        if (firstOff(v, run, errorsOf(heads, start, n), stored) < 0)
            return start;
    }
    return std::nullopt;
}

// `n` slopes against `heads` declared, n != heads. A contiguous run of get_slopes(heads) is what a
// tensor-parallel rank holds where it is one of heads / n equal shares (vLLM's
// model_executor/models/bloom.py, BloomAttention.__init__: _get_alibi_slopes(total_num_heads)
// [tp_rank * num_heads:(tp_rank + 1) * num_heads]): a variant, the heads it matches said, never the
// declared reference itself. get_slopes(n), which is no run of get_slopes(heads) (get_slopes(8) is
// the first 8 of get_slopes(12), get_slopes(16) no run of get_slopes(32)), is the slopes of another
// head count: kHeadCount with both counts. Anything else is kSlopes.
TableMatch againstDeclaredHeads(TableMatch m, const std::vector<double> &v, StoredType stored, std::int64_t heads)
{
    const auto n = std::int64_t(v.size());
    if (const auto start = n < heads ? runStart(v, heads, stored) : std::nullopt) {
        const std::vector<double> all = AlibiSlopes::all(heads);
        const std::int64_t first = *start + 1, last = *start + n;
        const bool share = heads % n == 0 && *start % n == 0;
        const std::vector<double> run(all.begin() + *start, all.begin() + *start + n);
        worst(m, v, run);
        m.verdict = CheckVerdict::Variant;
        m.findings = {{u"heads"_s, heads}};
        m.referenceText = u"heads %1..%2 of get_slopes(%3): %4"_s.arg(first).arg(last).arg(heads).arg(listed(run));
        m.diagnosis = u"the %1 slopes are heads %2..%3 of the %4 declared, get_slopes(%4)[%5:%3]%6"_s.arg(n)
                          .arg(first)
                          .arg(last)
                          .arg(heads)
                          .arg(*start)
                          .arg(share ? u": a tensor-parallel rank's share, rank %1 of %2 (vLLM's BloomAttention: "
                                       "alibi_slopes[tp_rank * num_heads:(tp_rank + 1) * num_heads])"_s.arg(*start / n)
                                           .arg(heads / n)
                                     : u": a contiguous run, no tensor-parallel rank's share (a rank of %1 heads "
                                       "holds heads r·%1 + 1..(r + 1)·%1)"_s.arg(n));
        if (firstOff(v, AlibiSlopes::all(n), errorsOf(n), stored) < 0)
            m.diagnosis += u"; they are also get_slopes(%1), the slopes of %1 heads"_s.arg(n);
        return m;
    }
    m.verdict = CheckVerdict::Mistake;
    if (firstOff(v, AlibiSlopes::all(n), errorsOf(n), stored) < 0) {
        m.mistakes = {kHeadCount};
        m.diagnosis = u"alibi-head-count: the %1 slopes are get_slopes(%1), ALiBi's slopes of %1 heads, where %2 "
                      "heads are declared (get_slopes(%2): %3); no run of the declared heads' slopes"_s.arg(n)
                          .arg(heads)
                          .arg(listed(AlibiSlopes::all(heads)));
        // The rank's own get_slopes: its local head count where the model's H belongs (flashinfer#1606).
        if (heads > n && heads % n == 0)
            m.diagnosis += u"; a tensor-parallel rank's local head count where each rank holds a run of "
                           "get_slopes(%1)'s heads (flashinfer#1606)"_s.arg(heads);
        return m;
    }
    m.mistakes = {kSlopes};
    m.diagnosis
        = u"%1 slopes, which are neither get_slopes(%2) nor a run of its heads, nor get_slopes(%1)"_s.arg(n).arg(heads);
    return m;
}

} // namespace

double float32Error(std::int64_t heads, std::int64_t head)
{
    const std::int64_t power = AlibiSlopes::geometricHeads(heads);
    const bool past = head > power;
    const std::int64_t k = past ? 2 * (head - power) - 1 : head;
    return double(k) * baseRounding(past ? 2 * power : power) + 8.0 * std::ldexp(1.0, -24);
}

bool exactSlope(std::int64_t heads, std::int64_t head)
{
    const std::int64_t power = AlibiSlopes::geometricHeads(heads);
    return heads > 0 && baseRounding(head > power ? 2 * power : power) == 0.0;
}

bool plausible(const std::vector<double> &v)
{
    return !v.empty()
        && std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x) && x > 0.0 && x <= 1.0; });
}

TableMatch check(const std::vector<double> &v, StoredType stored, std::optional<std::int64_t> declaredHeads)
{
    const auto n = std::int64_t(v.size());
    const std::int64_t heads = declaredHeads.value_or(n);
    TableMatch m = base(v, heads);
    if (n > AlibiParams::kMaxHeads || heads > AlibiParams::kMaxHeads) {
        m.diagnosis = u"more heads than ALiBi's %1"_s.arg(AlibiParams::kMaxHeads);
        return m;
    }
    // The widest head's: its slope's float32 computation, and a half format's two half units.
    const double halfFormat = stored == StoredType::Float16 ? 2.0 * halfUnit(ValueFormat::Float16)
        : stored == StoredType::BFloat16                    ? 2.0 * halfUnit(ValueFormat::BFloat16)
                                                            : 0.0;
    const std::vector<double> headErrors = errorsOf(std::max<std::int64_t>(heads, 1));
    m.tolerance.relative = *std::max_element(headErrors.begin(), headErrors.end()) + halfFormat;
    // Undeclared, a shorter vector may be a rank's heads of 2 to 8 times as many.
    QList<std::int64_t> totals {heads};
    if (!declaredHeads) {
        for (std::int64_t k = 2; k <= 8; ++k)
            totals.append(n * k);
    }
    if (declaredHeads && n != heads)
        return againstDeclaredHeads(std::move(m), v, stored, heads);
    if (correctAgainstAny(m, v, stored, totals))
        return m;
    const std::vector<double> reference = AlibiSlopes::all(n);
    worst(m, v, reference);
    if (std::all_of(v.begin(), v.end(), [](double x) { return x == 0.0; })) {
        // No bias at all: the slopes lost (keras-hub#2977, Falcon's bias built over the one-token
        // query window at decode, every key at distance 0), or no ALiBi applied.
        m.verdict = declaredHeads ? CheckVerdict::Mistake : CheckVerdict::Unknown;
        m.mistakes = {kBiasZero};
        m.deviations = u"head 1 has slope 0 where get_slopes(%1) gives %2"_s.arg(n).arg(
            NumberText::compact(reference.front(), 7));
        m.diagnosis = u"every head's slope is 0 (%1 heads): the tensor holds no bias at all, where get_slopes(%1) "
                      "gives %2: the slopes lost or the bias never built (keras-hub#2977: Falcon's ALiBi built over "
                      "the one-token query window at decode, every key at distance 0), or no ALiBi applied"_s.arg(n)
                          .arg(listed(reference));
        return m;
    }
    const std::vector<double> errors = errorsOf(n);
    const std::int64_t off = firstOff(v, reference, errors, stored);
    m.deviations = deviationWords(v, reference, errors, stored);
    // The series' exponent off by one head (aprender#2143: 2^(-8h/n) from h = 0, head 1's slope 1).
    for (const int start : {0, 2}) {
        if (firstOff(v, geometric(n, start), errors, stored) >= 0)
            continue;
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {kSlopes};
        m.diagnosis = u"the slopes are 2^(-8(k + %1)/%2) for heads k = 0..%3, the exponent starting at %1 where "
                      "get_slopes' starts at 1 (head 1's slope 2^(-8/%2) = %4); %5"_s.arg(start)
                          .arg(n)
                          .arg(n - 1)
                          .arg(NumberText::compact(std::pow(2.0, -8.0 / double(n)), 6))
                          .arg(m.deviations);
        return m;
    }
    if ((n & (n - 1)) != 0 && firstOff(v, geometric(n), errors, stored) < 0) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {kSlopes};
        m.diagnosis = u"the slopes are 2^(-8k/%1), k = 1..%1, the power-of-two formula at %1 heads, which is no "
                      "power of two: get_slopes takes the %2 slopes of %2 heads, then every other of %3 heads' "
                      "(%4); %5"_s.arg(n)
                          .arg(AlibiSlopes::geometricHeads(n))
                          .arg(2 * AlibiSlopes::geometricHeads(n))
                          .arg(listed(reference, std::size_t(n)))
                          .arg(m.deviations);
        return m;
    }
    // Every slope get_slopes' times one factor: the bias scaled as a whole, as Megatron-DeepSpeed's
    // ParallelAttention.forward did with apply_query_key_layer_scaling (baddbmm beta 1.0, the scores
    // then multiplied back by layer_number in FusedScaleMaskSoftmax: layer 4's bias times 4,
    // bigscience-workshop/Megatron-DeepSpeed#222).
    if (const auto factor = commonFactor(v, reference, errors, stored)) {
        m.verdict = declaredHeads ? CheckVerdict::Mistake : CheckVerdict::Unknown;
        if (declaredHeads)
            m.mistakes = {kSlopes};
        m.diagnosis
            = u"scaled: every slope is get_slopes(%1)'s times %2 (%3 where get_slopes gives %4): the bias multiplied "
              u"by a "
              "factor, as a per-layer scaling does (Megatron-DeepSpeed#222: with "
              "apply_query_key_layer_scaling the ALiBi term of layer N reached the softmax times N); %5"_s.arg(n)
                  .arg(NumberText::compact(*factor, 6), listed(v), listed(reference), m.deviations);
        return m;
    }
    // get_slopes of fewer heads per group: no reordering of get_slopes(n) repeats a value.
    if (const std::int64_t group = repeatedGroup(v, stored)) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {kSlopes};
        m.diagnosis = u"get_slopes(%1) per group of %1 heads: a tensor-parallel rank's local head count, each of "
                      "the %2 groups given the slopes of %1 heads (%3) where the model's %4 heads take get_slopes(%4), "
                      "a rank's heads a run of them (flashinfer#1606: get_alibi_slopes called with the rank's head "
                      "count); %5"_s.arg(group)
                          .arg(n / group)
                          .arg(listed(AlibiSlopes::all(group)))
                          .arg(n)
                          .arg(m.deviations);
        return m;
    }
    bool allPublished = true;
    for (const double s : v)
        allPublished = allPublished && headOf(s, reference, errors, stored) > 0;
    if (allPublished) {
        m.verdict = CheckVerdict::Mistake;
        m.mistakes = {kHeadOrder};
        m.diagnosis
            = u"head %1 holds the slope of head %2 (%3): get_slopes(%4)'s values at the wrong heads"_s.arg(off + 1)
                  .arg(headOf(v[std::size_t(off)], reference, errors, stored))
                  .arg(NumberText::compact(v[std::size_t(off)], 7))
                  .arg(n);
        return m;
    }
    m.verdict = declaredHeads ? CheckVerdict::Mistake : CheckVerdict::Unknown;
    if (declaredHeads)
        m.mistakes = {kSlopes};
    m.diagnosis = u"not ALiBi's get_slopes(%1): %2"_s.arg(n).arg(m.deviations);
    return m;
}

std::optional<std::pair<std::int64_t, std::int64_t>> headsHeld(const std::vector<double> &v, StoredType stored,
                                                               std::int64_t declared)
{
    const auto n = std::int64_t(v.size());
    if (n == declared || n < 1 || declared < 1 || n > AlibiParams::kMaxHeads || declared > AlibiParams::kMaxHeads)
        return std::nullopt;
    if (const auto start = n < declared ? runStart(v, declared, stored) : std::nullopt)
        return std::pair {declared, *start};
    if (firstOff(v, AlibiSlopes::all(n), errorsOf(n), stored) < 0)
        return std::pair {n, std::int64_t(0)};
    return std::nullopt;
}

QStringList mistakeIds()
{
    return {kSlopes, kHeadOrder, kBiasZero, kHeadCount};
}

} // namespace posenc::AlibiSlopeVector
