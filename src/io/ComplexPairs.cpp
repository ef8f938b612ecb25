#include "io/ComplexPairs.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace posenc::ComplexPairs {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

class PairRows final : public TableRows
{
public:
    PairRows(std::shared_ptr<const TableRows> raw, const Pairs &pairs, QString words)
        : m_raw(std::move(raw))
        , m_l(pairs.rows)
        , m_k(pairs.k)
        , m_words(std::move(words))
    { }

    std::int64_t rows() const override { return m_l; }
    std::int64_t cols() const override { return 2 * m_k; }
    StoredType storedType() const override { return m_raw->storedType(); }
    QString name() const override { return u"%1 (%2)"_s.arg(m_raw->name(), m_words); }

    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        if (row0 < 0 || count < 0 || row0 > m_l || count > m_l - row0) {
            error = u"rows %1..%2 were asked for; the array has %3 rows of %4 pairs"_s.arg(row0)
                        .arg(row0 + count - 1)
                        .arg(m_l)
                        .arg(m_k);
            return false;
        }
        // The pairs of a row are its 2K values interleaved (re, im, re, im, ...): read into `out`,
        // then each row parted through a row of this thread's.
        if (!m_raw->read(row0 * m_k, count * m_k, out, error)) {
            error = u"rows %1..%2 of %3 (%4 pairs a row): %5"_s.arg(row0)
                        .arg(row0 + count - 1)
                        .arg(m_l)
                        .arg(m_k)
                        .arg(error);
            return false;
        }
        thread_local std::vector<float> t_row;
        t_row.resize(std::size_t(2 * m_k));
        for (std::int64_t r = 0; r < count; ++r) {
            float *row = out + r * 2 * m_k;
            for (std::int64_t c = 0; c < m_k; ++c) {
                t_row[std::size_t(c)] = row[2 * c];
                t_row[std::size_t(m_k + c)] = row[2 * c + 1];
            }
            std::copy(t_row.begin(), t_row.end(), row);
        }
        return true;
    }

private:
    std::shared_ptr<const TableRows> m_raw;
    std::int64_t m_l, m_k;
    QString m_words;
};

double wrapped(double a)
{
    return std::remainder(a, kTwoPi);
}

// The angle a stored value's rounding leaves unsure: a few units of its type's last place.
double angleRounding(StoredType type)
{
    switch (type) {
    case StoredType::BFloat16:
        return 4.0 * 0x1p-8;
    case StoredType::Float16:
        return 4.0 * 0x1p-11;
    default:
        return 1e-6;
    }
}

// Whether the angles `a` (row r0) and `b` (row r1) of K pairs are w_k · q_r0 and w_k · q_r1 for one
// pair of positions and frequencies w_k: with Δ_k = b_k - a_k = w_k (q_r1 - q_r0), a_k = Δ_k ρ for one
// ρ = q_r0 / (q_r1 - q_r0). ρ's candidates are a base pair's turns (the slowest whose Δ the rounding
// leaves sure to a part in a thousand), nearest 0 first; each is held by every other turning pair
// whose prediction is sure, slowest first, and refined by each. The least |ρ| held, or nothing.
std::optional<double> sharedPositions(const std::vector<double> &a, const std::vector<double> &b, double rounding)
{
    const std::size_t k = a.size();
    std::vector<double> delta(k);
    for (std::size_t i = 0; i < k; ++i)
        delta[i] = wrapped(b[i] - a[i]);
    // The pairs that turn between the rows, slowest first; one that does not (frequency 0, or too
    // slow for two rows to show) tells nothing of ρ.
    const double still = 4.0 * rounding;
    std::vector<std::size_t> turning;
    for (std::size_t i = 0; i < k; ++i) {
        if (std::fabs(delta[i]) > still)
            turning.push_back(i);
    }
    if (turning.empty()) {
        const bool atZero = std::all_of(a.begin(), a.end(), [&](double x) { return std::fabs(wrapped(x)) <= still; });
        return atZero ? std::optional(0.0) : std::nullopt;
    }
    std::sort(turning.begin(), turning.end(), [&](std::size_t x, std::size_t y) { return std::fabs(delta[x]) < std::fabs(delta[y]); });
    const auto sure = std::find_if(turning.begin(), turning.end(), [&](std::size_t i) { return std::fabs(delta[i]) >= 1e3 * still; });
    const std::size_t base = sure != turning.end() ? *sure : turning.back();
    const double db = delta[base];
    // A pair's predicted angle at an exact ρ: its Δ's rounding (both rows' angles, a float32 angle's
    // rounding growing with it) times ρ.
    const auto doubt = [&](std::size_t i, double rho) {
        return 2.0 * (rounding + 0x1p-23 * std::fabs(delta[i] * rho)) * (1.0 + std::fabs(rho)) + rounding;
    };
    const std::int64_t needed = std::min<std::int64_t>(std::int64_t(turning.size()) - 1, 2);
    // Positions up to 2^20 rows' steps from 0.
    const std::int64_t turns = std::min<std::int64_t>(std::int64_t(std::ceil(0x1p20 * std::fabs(db) / kTwoPi)) + 1, 1 << 14);
    for (std::int64_t m = 0; m <= 2 * turns; ++m) {
        const std::int64_t n = m % 2 == 0 ? m / 2 : -(m + 1) / 2;
        double rho = (wrapped(a[base]) + kTwoPi * double(n)) / db;
        double spread = doubt(base, rho) / std::fabs(db);
        bool held = true;
        std::int64_t checked = 0;
        for (std::size_t t = 0; t < turning.size() && held; ++t) {
            const std::size_t i = turning[t];
            if (i == base)
                continue;
            const double tolerance = 3.0 * (std::fabs(delta[i]) * spread + doubt(i, rho));
            if (tolerance > 0.3)
                continue;
            const double off = wrapped(a[i] - delta[i] * rho);
            held = std::fabs(off) <= tolerance;
            ++checked;
            const double finer = doubt(i, rho) / std::fabs(delta[i]);
            if (held && finer < spread) {
                rho += off / delta[i];
                spread = finer;
            }
        }
        if (held && checked >= needed)
            return std::fabs(rho);
    }
    return std::nullopt;
}

} // namespace

std::optional<Pairs> pairsOf(const std::vector<std::int64_t> &shape, bool complex)
{
    if (shape.size() < 2 || shape.back() != 2)
        return std::nullopt;
    std::vector<std::int64_t> file(shape.begin(), shape.end() - 1);
    if (!complex && std::count_if(file.begin(), file.end(), [](std::int64_t d) { return d != 1; }) < 2)
        return std::nullopt;
    if (!complex && file.back() < 2)
        return std::nullopt;
    Pairs p;
    p.k = file.back();
    p.rows = 1;
    for (std::size_t i = 0; i + 1 < file.size(); ++i) {
        if (file[i] < 0 || __builtin_mul_overflow(p.rows, file[i], &p.rows))
            return std::nullopt;
    }
    if (p.k < 1 || p.rows < 1 || p.k > (std::int64_t(1) << 61))
        return std::nullopt;
    p.tableShape = file;
    if (p.tableShape.size() == 1)
        p.tableShape.insert(p.tableShape.begin(), 1); // one complex row: a table of one row
    p.tableShape.back() = 2 * p.k;
    return p;
}

bool oneModulus(const TableRows &raw, std::int64_t k)
{
    constexpr std::int64_t kRowsRead = 64;
    if (k < 1 || raw.cols() != 2)
        return false;
    const std::int64_t count = std::min(raw.rows(), kRowsRead * k);
    std::vector<float> values(std::size_t(2 * count));
    QString error;
    if (count < 1 || !raw.read(0, count, values.data(), error))
        return false;
    const double first = std::hypot(double(values[0]), double(values[1]));
    if (!std::isfinite(first) || first <= 0.0)
        return false;
    for (std::int64_t i = 0; i < count; ++i) {
        const double modulus = std::hypot(double(values[std::size_t(2 * i)]), double(values[std::size_t(2 * i + 1)]));
        if (!(std::abs(modulus - first) <= 0.02 * first))
            return false;
    }
    return true;
}

Order orderOf(const TableRows &raw, const Pairs &pairs)
{
    const std::int64_t k = pairs.k, rows = pairs.rows;
    if (raw.cols() != 2 || raw.rows() != rows * k)
        return Order::Neither;
    const double rounding = angleRounding(raw.storedType());
    // The angles of row r in each order: (cos, sin) atan2(second, first), (sin, cos) atan2(first, second).
    const auto anglesOf = [&](std::int64_t r, std::vector<double> &cosSin, std::vector<double> &sinCos) {
        std::vector<float> v(std::size_t(2 * k));
        QString error;
        if (!raw.read(r * k, k, v.data(), error))
            return false;
        cosSin.resize(std::size_t(k));
        sinCos.resize(std::size_t(k));
        for (std::int64_t i = 0; i < k; ++i) {
            const double first = v[std::size_t(2 * i)], second = v[std::size_t(2 * i + 1)];
            cosSin[std::size_t(i)] = std::atan2(second, first);
            sinCos[std::size_t(i)] = std::atan2(first, second);
        }
        return true;
    };
    // Each order's least |ρ| (rows from the positions' 0, in steps) that makes its angles positions'.
    std::optional<double> cosSin, sinCos;
    const auto least = [](std::optional<double> &into, std::optional<double> rho) {
        if (rho && (!into || *rho < *into))
            into = rho;
    };
    if (rows == 1) {
        // One row: positions cannot be read, but position 0 can (every angle 0).
        std::vector<double> c, s;
        if (!anglesOf(0, c, s))
            return Order::Neither;
        const auto atZero = [&](const std::vector<double> &a) {
            return std::all_of(a.begin(), a.end(), [&](double x) { return std::fabs(x) <= 2.0 * rounding + 1e-6; });
        };
        if (atZero(c))
            cosSin = 0.0;
        if (atZero(s))
            sinCos = 0.0;
    } else {
        // Three pairs of consecutive rows: a row or two damaged does not hide what the rest are.
        std::vector<std::int64_t> starts {0, 1, rows / 2};
        std::sort(starts.begin(), starts.end());
        starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
        for (const std::int64_t r : starts) {
            if (r + 1 >= rows)
                continue;
            std::vector<double> c0, s0, c1, s1;
            if (!anglesOf(r, c0, s0) || !anglesOf(r + 1, c1, s1))
                return Order::Neither;
            least(cosSin, sharedPositions(c0, c1, rounding));
            least(sinCos, sharedPositions(s0, s1, rounding));
        }
    }
    // Both: the one whose positions lie far nearer 0 (a few rows against thousands) is what the
    // file holds; comparable ones, the data cannot tell.
    if (cosSin && sinCos) {
        if (8.0 * (*cosSin + 1.0) < *sinCos + 1.0)
            return Order::CosSin;
        if (8.0 * (*sinCos + 1.0) < *cosSin + 1.0)
            return Order::SinCos;
        return Order::Either;
    }
    return cosSin ? Order::CosSin : sinCos ? Order::SinCos : Order::Neither;
}

QString readingWords(Order order, bool complex, const QString &fileShape, const Pairs &pairs)
{
    const QString rows = u"%1 row%2 of %3 pairs"_s.arg(pairs.rows).arg(pairs.rows == 1 ? QString() : u"s"_s).arg(pairs.k);
    if (complex)
        return u"a complex array of shape %1: %2 row%3 of %4 complex pairs, read as cat(real, imaginary)"_s.arg(fileShape)
            .arg(pairs.rows)
            .arg(pairs.rows == 1 ? QString() : u"s"_s)
            .arg(pairs.k);
    switch (order) {
    case Order::CosSin:
        return u"shape %1: %2 of (cos, sin) of one angle, complex pairs, read as cat(real, imaginary)"_s.arg(fileShape, rows);
    case Order::SinCos:
        return u"shape %1: %2 of (sin, cos) of one angle, an interleaved sinusoid, read as the file lays them out"_s.arg(
            fileShape, rows);
    case Order::Either:
        return u"shape %1: %2 whose angles are positions' both as (cos, sin), complex pairs read as cat(real, imaginary), "
               "and as (sin, cos), an interleaved sinusoid; the data cannot tell them apart: read as the file lays "
               "them out, (first, second) interleaved"_s.arg(fileShape, rows);
    case Order::Neither:
        break;
    }
    return u"shape %1: %2 of one modulus whose angles are no positions' as (cos, sin), complex pairs, nor as (sin, cos), an "
           "interleaved sinusoid; the data cannot tell which: read as the file lays them out, (first, second) "
           "interleaved"_s.arg(fileShape, rows);
}

std::shared_ptr<const TableRows> asTable(std::shared_ptr<const TableRows> raw, const Pairs &pairs, QString words)
{
    return std::make_shared<PairRows>(std::move(raw), pairs, std::move(words));
}

} // namespace posenc::ComplexPairs
