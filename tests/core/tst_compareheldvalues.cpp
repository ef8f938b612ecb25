// The stream's comparison of rows with a format's own values held (check/CompareSimd's compareRows
// with HeldValues, CellTolerance::heldFormat): on every SIMD target this CPU runs, a row is over
// where a cell is, by the formula written here: |cell - reference| > r |reference| + absolute, r the
// held relative where the reference's float32 bits below bfloat16's mantissa are 0 and |reference|
// is a normal bfloat16, else the format's. Rows of every length around the vector widths (the tail
// cell by cell), references whole numbers (bfloat16's up to 256, and past it even ones), halves and
// no bfloat16's, cells equal, half a unit and a unit away.
#include "SimdTargetRuns.h"
#include "support/TestMain.h"

#include "check/CompareSimd.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace tst_compareheldvalues {
using namespace posenc;

// Named: the lambda run on every target captures a Row (gcc's -Wsubobject-linkage).
namespace heldtest {

struct Row
{
    std::vector<float> table, reference;
};

constexpr float kRelative = float(1.01 * 0x1p-8 + 1.01 * 0x1p-23); // bfloat16's half unit and float32's
constexpr float kHeldRelative = float(1.01 * 0x1p-23);
constexpr float kAbsolute = 1e-12f;

Row randomRow(std::int64_t count, std::mt19937 &random)
{
    std::uniform_int_distribution<int> whole(-600, 600), kind(0, 3);
    Row row;
    for (std::int64_t c = 0; c < count; ++c) {
        const int k = kind(random);
        const float reference = k == 3 ? float(whole(random)) * 1.001f : float(whole(random)) + (k == 2 ? 0.5f : 0.0f);
        const int move = kind(random);
        const float cell = move == 0 ? reference : reference + (move == 1 ? 0.5f : move == 2 ? -1.0f : 1.0f);
        row.reference.push_back(reference);
        row.table.push_back(cell);
    }
    return row;
}

bool bfloatOwn(float x)
{
    const float a = std::fabs(x);
    return (std::bit_cast<std::uint32_t>(x) & 0xffffu) == 0 && a >= 0x1p-126f && a <= 0x1.fep127f;
}

bool overByFormula(const Row &row)
{
    // No cell is near its limit (the nearest, a half at 127.127, is 0.0009 inside it): float or double
    // alike.
    bool over = false;
    for (std::size_t c = 0; c < row.table.size(); ++c) {
        const double ref = row.reference[c];
        const double r = bfloatOwn(row.reference[c]) ? double(kHeldRelative) : double(kRelative);
        over = over || std::fabs(double(row.table[c]) - ref) > r * std::fabs(ref) + double(kAbsolute);
    }
    return over;
}

} // namespace heldtest

class TestCompareHeldValues : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(testing::nameTheTargets()); }

    void overIsTheFormulasOnEveryTarget()
    {
        using namespace heldtest;
        std::mt19937 random(58);
        const HeldValues held {0xffffu, 0x1p-126f, 0x1.fep127f, kHeldRelative};
        std::int64_t overRows = 0, rows = 0;
        for (std::int64_t count = 1; count <= 70; ++count) {
            for (int trial = 0; trial < 8; ++trial) {
                const Row row = randomRow(count, random);
                const bool expected = overByFormula(row);
                const std::vector<bool> got = testing::onEveryTarget<bool>([&] {
                    std::vector<float> columnMax(std::size_t(count), 0.0f);
                    return compareRows(row.table.data(), count, row.reference.data(), count, 1, columnMax.data(), count,
                                       kRelative, kAbsolute, nullptr, nullptr, false, &held)
                        .over[0];
                });
                for (std::size_t t = 0; t < got.size(); ++t)
                    QVERIFY2(got[t] == expected,
                             qPrintable(QStringLiteral("%1 cells, target %2").arg(count).arg(testing::targetName(t))));
                overRows += expected ? 1 : 0;
                ++rows;
            }
        }
        // Both kinds of row were compared.
        QVERIFY(overRows > 0 && overRows < rows);
    }

    // Without HeldValues a whole number's neighbour is within bfloat16's half unit past 128 (255 and
    // 256): with them it is over.
    void aBucketOneOffIsOverOnlyWhenHeld()
    {
        const std::vector<float> reference {255.0f}, table {256.0f};
        const heldtest::Row row {table, reference};
        const HeldValues held {0xffffu, 0x1p-126f, 0x1.fep127f, heldtest::kHeldRelative};
        for (const bool withHeld : {false, true}) {
            const std::vector<bool> got = testing::onEveryTarget<bool>([&] {
                float columnMax = 0.0f;
                return compareRows(row.table.data(), 1, row.reference.data(), 1, 1, &columnMax, 1, heldtest::kRelative,
                                   heldtest::kAbsolute, nullptr, nullptr, false, withHeld ? &held : nullptr)
                    .over[0];
            });
            for (const bool over : got)
                QCOMPARE(over, withHeld);
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCompareHeldValues)
} // namespace tst_compareheldvalues
#include "tst_compareheldvalues.moc"
