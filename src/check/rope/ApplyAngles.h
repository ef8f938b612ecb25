#pragma once

#include "check/FitNumbers.h"
#include "check/TableRows.h"
#include "check/rope/ApplyPairs.h"
#include "core/Block.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

// posenc check --apply's angles, as the table the frequencies are identified from
// (docs/ARCHITECTURE.md, Checking a rotation).
namespace posenc::ApplyCheck {

// The angles as a RoPE cos table in HF's layout (A cos(angle), cat over the halves), a row at a
// time as the identification reads them, each cell allowed its angle's uncertainty: the check's
// own identification then reads rope_type and parameters from it, at any number of rows. A row
// out of step with both its neighbours (rows exchanged, permuted or reversed: its position is not
// its predecessor's + 1 nor its successor's - 1) is not shown as it is, which would make the table
// no RoPE table: its angles are its in-step neighbours', as if its position followed theirs, each
// allowed a whole radian; each row's own position is read afterwards.
class AnglesRows final : public TableRows
{
public:
    // `origin` >= 0: each row's angles less row origin's, each pair's uncertainty the sum of both:
    // rows at p0..p0+n-1 (a decode step's or a later chunk's, after a cache of p0 tokens) read as a
    // table at 0..n-1, whose frequencies the identification reads at any p0; the rows' own positions
    // are read afterwards with the frequencies found (ApplyPairs::readId).
    AnglesRows(const RowMatrixXf &x, const RowMatrixXf &y, const ApplyPairs::Reading &r, double u,
               std::int64_t origin = -1)
        : m_x(x)
        , m_y(y)
        , m_reading(r)
        , m_u(u)
        , m_origin(originOf(origin))
        , m_step(steps())
    { }

    std::int64_t rows() const override { return m_x.rows(); }
    // How many rows from the first follow each other a position apart (rows of two chunks whose
    // positions both start at p0 are two such runs).
    std::int64_t leadingRun() const
    {
        const std::int64_t pairs = m_reading.geometry.pairs();
        Angles before(pairs), row(pairs);
        if (rows() > 0)
            solved(0, before);
        for (std::int64_t p = 1; p < rows(); ++p) {
            solved(p, row);
            if (!follows(p, before, row, 1.0))
                return p;
            std::swap(before, row);
        }
        return rows();
    }
    std::int64_t cols() const override { return m_reading.geometry.width; }
    // The format of Y's values, whose rounding the angles carry: a RoPE table read from float16 or
    // bfloat16 values is fitted with that format's noise and amplitude tolerance.
    StoredType storedType() const override
    {
        return m_u >= 0x1p-8 ? StoredType::BFloat16 : m_u >= 0x1p-11 ? StoredType::Float16 : StoredType::Float32;
    }
    bool hasCellRounding() const override { return true; }
    QString name() const override { return QStringLiteral("the angles of --apply"); }

    bool read(std::int64_t row0, std::int64_t count, float *out, QString &) const override
    {
        const std::int64_t pairs = m_reading.geometry.pairs();
        Window window(*this, row0, count);
        Angles row(pairs);
        for (std::int64_t r = 0; r < count; ++r) {
            rowOf(window, row0 + r, row);
            for (std::int64_t k = 0; k < pairs; ++k) {
                const auto value = float(m_reading.factor * std::cos(row.angle[std::size_t(k)]));
                out[r * 2 * pairs + k] = value;
                out[r * 2 * pairs + k + pairs] = value;
            }
        }
        return true;
    }

    void addCellRounding(std::int64_t row0, std::int64_t count, std::int64_t col0, std::int64_t cols,
                         float *extra) const override
    {
        const std::int64_t pairs = m_reading.geometry.pairs();
        Window window(*this, row0, count);
        Angles row(pairs);
        for (std::int64_t r = 0; r < count; ++r) {
            rowOf(window, row0 + r, row);
            // A cell A cos(angle) moves by at most A times its angle's uncertainty (2 A: any value).
            for (std::int64_t c = 0; c < cols; ++c) {
                const double uncertainty = std::min(row.unc[std::size_t((col0 + c) % pairs)], 2.0);
                extra[r * cols + c] += float(uncertainty * m_reading.factor);
            }
        }
    }

private:
    // How far from a row out of step its in-step neighbours are looked for.
    static constexpr std::int64_t kReach = 16;

    struct Angles
    {
        explicit Angles(std::int64_t pairs)
            : angle(static_cast<std::size_t>(pairs))
            , unc(angle.size())
        { }
        std::vector<double> angle, unc;
    };

    // The rows one read reaches (its own, and kReach + 1 either side, where a row out of step
    // looks for in-step neighbours and their neighbours), each row's angles solved once and its
    // step judged once, as first asked: a table whose rows are all out of step (no rotation at
    // all) is read at a few solves a row, not one per neighbour and pair. A read's own: reads of
    // several threads at once share nothing.
    class Window
    {
    public:
        Window(const AnglesRows &rows, std::int64_t row0, std::int64_t count)
            : m_rows(rows)
            , m_pairs(rows.m_reading.geometry.pairs())
            , m_lo(std::max<std::int64_t>(0, row0 - kReach - 1))
            , m_hi(std::min(rows.rows(), row0 + count + kReach + 1))
            , m_angles(std::size_t(std::max<std::int64_t>(m_hi - m_lo, 0)), Angles(0))
            , m_step(m_angles.size(), kUnknown)
        { }

        // Row q's solved angles (q within the window).
        const Angles &solved(std::int64_t q)
        {
            Angles &a = m_angles[std::size_t(q - m_lo)];
            if (a.angle.empty() && m_pairs > 0) {
                a = Angles(m_pairs);
                m_rows.solved(q, a);
            }
            return a;
        }

        // Whether row q is in step with its predecessor or its successor (a single row with itself).
        bool inStep(std::int64_t q)
        {
            signed char &step = m_step[std::size_t(q - m_lo)];
            if (step == kUnknown) {
                const Angles &row = solved(q);
                bool in = m_rows.rows() < 2;
                if (!in && q > 0 && q - 1 >= m_lo)
                    in = m_rows.follows(q, solved(q - 1), row, 1.0);
                if (!in && q + 1 < m_rows.rows() && q + 1 < m_hi)
                    in = m_rows.follows(q, row, solved(q + 1), 1.0);
                step = in ? 1 : 0;
            }
            return step == 1;
        }

        std::int64_t lo() const { return m_lo; }
        std::int64_t hi() const { return m_hi; }

    private:
        static constexpr signed char kUnknown = -1;
        const AnglesRows &m_rows;
        std::int64_t m_pairs, m_lo, m_hi;
        std::vector<Angles> m_angles;
        std::vector<signed char> m_step;
    };

    void solved(std::int64_t p, Angles &row) const
    {
        ApplyPairs::rowAngles(m_x, m_y, p, m_reading.geometry, m_u, row.angle.data(), nullptr, row.unc.data());
        for (std::size_t k = 0; k < m_origin.angle.size() && k < row.angle.size(); ++k) {
            row.angle[k] = std::remainder(row.angle[k] - m_origin.angle[k], kTurn);
            row.unc[k] += m_origin.unc[k];
        }
    }

    // Row origin's angles (none where origin < 0).
    Angles originOf(std::int64_t origin) const
    {
        if (origin < 0 || origin >= m_x.rows())
            return Angles(0);
        Angles row(m_reading.geometry.pairs());
        ApplyPairs::rowAngles(m_x, m_y, origin, m_reading.geometry, m_u, row.angle.data(), nullptr, row.unc.data());
        return row;
    }

    // Each pair's turn from one row to the next, the median over the first rows: consecutive
    // positions' step; NaN where too few rows tell it.
    std::vector<double> steps() const
    {
        const std::int64_t pairs = m_reading.geometry.pairs(), last = std::min<std::int64_t>(rows(), 65);
        std::vector<std::vector<double>> turns(static_cast<std::size_t>(pairs));
        Angles before(pairs), row(pairs);
        for (std::int64_t p = 0; p < last; ++p) {
            std::swap(before, row);
            solved(p, row);
            for (std::size_t k = 0; k < turns.size() && p > 0; ++k) {
                if (judged(before, k) && judged(row, k))
                    turns[k].push_back(std::remainder(row.angle[k] - before.angle[k], kTurn));
            }
        }
        std::vector<double> step(turns.size(), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t k = 0; k < turns.size(); ++k) {
            if (turns[k].size() >= 8)
                step[k] = FitNumbers::median(turns[k]);
        }
        return step;
    }

    static bool judged(const Angles &row, std::size_t k) { return !std::isnan(row.angle[k]) && row.unc[k] < 0.1; }

    // Whether row q's angles are row p's turned by `sign` steps, within their uncertainty and
    // float32's rounding of the angles at position ~p.
    bool follows(std::int64_t p, const Angles &row, const Angles &other, double sign) const
    {
        const double rounding = std::max(0.25, 0x1p-21 * double(p));
        for (std::size_t k = 0; k < row.angle.size(); ++k) {
            if (std::isnan(m_step[k]) || !judged(row, k) || !judged(other, k))
                continue;
            const double off = std::remainder(other.angle[k] - row.angle[k] - sign * m_step[k], kTurn);
            if (std::fabs(off) > rounding + 4.0 * (row.unc[k] + other.unc[k]))
                return false;
        }
        return true;
    }

    // Row p's angles; one the equations do not tell (X's pair 0, a padding row), or every one of a
    // row out of step, from the nearest in-step rows before and after it, as consecutive positions
    // turn, its uncertainty a whole radian.
    void rowOf(Window &window, std::int64_t p, Angles &row) const
    {
        const Angles &own = window.solved(p);
        row.angle = own.angle;
        row.unc = own.unc;
        const bool step = window.inStep(p);
        for (std::size_t k = 0; k < row.angle.size(); ++k) {
            if (!step || std::isnan(row.angle[k])) {
                row.angle[k] = filled(window, p, std::int64_t(k));
                row.unc[k] = 1.0;
            }
        }
    }

    // Row q's angle of pair k where q is in step and the angle told; NaN else.
    static double angleAt(Window &window, std::int64_t q, std::int64_t k)
    {
        const double angle = window.solved(q).angle[std::size_t(k)];
        if (std::isnan(angle) || !window.inStep(q))
            return std::numeric_limits<double>::quiet_NaN();
        return angle;
    }

    double filled(Window &window, std::int64_t p, std::int64_t k) const
    {
        std::int64_t before = p - 1, after = p + 1;
        double a = std::numeric_limits<double>::quiet_NaN(), b = a;
        for (; before >= std::max<std::int64_t>(0, p - kReach) && std::isnan(a); --before)
            a = angleAt(window, before, k);
        for (; after < std::min(rows(), p + kReach) && std::isnan(b); ++after)
            b = angleAt(window, after, k);
        ++before;
        --after;
        // The step consecutive rows turn by, where known: rows apart turn a fast pair past a turn.
        const double step = m_step[std::size_t(k)];
        if (!std::isnan(step) && !(std::isnan(a) && std::isnan(b)))
            return std::isnan(a) ? b - step * double(after - p) : a + step * double(p - before);
        if (std::isnan(a) || std::isnan(b))
            return std::isnan(a) ? (std::isnan(b) ? 0.0 : b) : a;
        return a + std::remainder(b - a, kTurn) / double(after - before) * double(p - before);
    }

    const RowMatrixXf &m_x;
    const RowMatrixXf &m_y;
    ApplyPairs::Reading m_reading;
    double m_u;
    Angles m_origin;
    std::vector<double> m_step;

    static constexpr double kTurn = 2.0 * std::numbers::pi;
};

} // namespace posenc::ApplyCheck
