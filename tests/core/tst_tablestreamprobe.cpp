// The stream's probe of a float32-angle match for exact values (check/CompareSimd's
// probeExactValues, TableStreamProbe): on every SIMD target this CPU runs, its counts are those of
// the formula written here in float64, cell by cell: a cell of a tested column is moved where
// !(rounding * position * slope < factor * limit), slope = sqrt(max(0, 1 - (reference / A)^2)),
// limit = relative |reference| + absolute, unless the float32 number nearest its exact angle
// p w = p rounding 2^24 / A holds it (A slope |p w - float(p w)| <= 3 limit), and holds the exact
// value where |cell - reference| <= limit. Rows of every length around the vector widths (the tail cell by cell),
// amplitude 1 and not, references past the amplitude (slope 0), cells equal, near, far and not a number.
#include "SimdTargetRuns.h"
#include "support/TestMain.h"

#include "check/CompareSimd.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace tst_tablestreamprobe {
using namespace posenc;

// Named: the lambda run on every target captures a Row (gcc's -Wsubobject-linkage).
namespace probetest {

struct Row
{
    std::vector<float> table, reference;
    std::vector<double> rounding, tested;
};

Row randomRow(std::int64_t count, double amplitude, std::mt19937 &random)
{
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Row row;
    for (std::int64_t c = 0; c < count; ++c) {
        const auto reference = float(amplitude * (2.4 * unit(random) - 1.2));
        const double kind = unit(random);
        const float cell = kind < 0.3 ? reference
            : kind < 0.6              ? reference + float(1e-7 * (unit(random) - 0.5))
            : kind < 0.95             ? reference + float(1e-3 * (unit(random) - 0.5))
                                      : std::numeric_limits<float>::quiet_NaN();
        row.table.push_back(cell);
        row.reference.push_back(reference);
        // Per unit of position: 2^-24 w for w from 1 to 1e-4, so that rows near and far differ.
        // A tenth at w = A / 4, whose angle p w is a float32 number at every integer p.
        row.rounding.push_back(unit(random) < 0.1 ? 0x1p-26 * amplitude
                                                  : 0x1p-24 * std::pow(10.0, -4.0 * unit(random)));
        row.tested.push_back(unit(random) < 0.9 ? 1.0 : 0.0);
    }
    return row;
}

// The counts as the formula gives them, in float64.
ExactProbe expected(const Row &row, double position, double relative, double absolute, double amplitude, double factor)
{
    ExactProbe out;
    for (std::size_t c = 0; c < row.table.size(); ++c) {
        if (row.tested[c] == 0.0)
            continue;
        const double reference = row.reference[c];
        const double limit = relative * std::fabs(reference) + absolute;
        const double v = reference / amplitude;
        const double slope = std::sqrt(std::max(0.0, 1.0 - v * v));
        if (row.rounding[c] * position * slope < factor * limit)
            continue;
        const double angle = row.rounding[c] * 0x1p24 / amplitude * position;
        if (amplitude * slope * std::fabs(angle - double(float(angle))) <= kFloat32AngleHeld * limit)
            continue;
        ++out.moved;
        if (std::fabs(double(row.table[c]) - reference) <= limit)
            ++out.exact;
    }
    return out;
}

} // namespace probetest

using namespace probetest;

class TestTableStreamProbe : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(testing::nameTheTargets()); }

    void countsAreTheFormulasOnEveryTarget()
    {
        std::mt19937 random(56);
        constexpr double relative = 0x1p-24, absolute = 1e-12, factor = 200.0;
        std::int64_t moved = 0, exact = 0;
        for (const double amplitude : {1.0, 1.1902380714238083}) {
            for (const std::int64_t count : {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 97, 1024}) {
                const Row row = randomRow(count, amplitude, random);
                for (const double position : {0.0, 1.0, 1000.0, 65536.0, 1048575.0}) {
                    const ExactProbe want = expected(row, position, relative, absolute, amplitude, factor);
                    moved += want.moved;
                    exact += want.exact;
                    const auto got = testing::onEveryTarget<ExactProbe>([&] {
                        ExactProbe out;
                        probeExactValues(row.table.data(), row.reference.data(), count, row.rounding.data(),
                                         row.tested.data(), position, relative, absolute, amplitude, factor, out);
                        return out;
                    });
                    for (std::size_t t = 0; t < got.size(); ++t) {
                        const QString where = QStringLiteral("%1, %2 cells, amplitude %3, position %4")
                                                  .arg(testing::targetName(t))
                                                  .arg(count)
                                                  .arg(amplitude)
                                                  .arg(position);
                        QVERIFY2(got[t].moved == want.moved, qPrintable(where));
                        QVERIFY2(got[t].exact == want.exact, qPrintable(where));
                    }
                }
            }
        }
        // The rows hold both kinds: cells moved, and of them some that hold the exact value.
        QVERIFY(moved > 1000);
        QVERIFY(exact > 100 && exact < moved);
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableStreamProbe)
} // namespace tst_tablestreamprobe
#include "tst_tablestreamprobe.moc"
