// The fit's roundings of a measured number: each the double nearest its decimal of so many digits,
// so that a report prints the base the fit chose as the few digits it is (3.16228, never
// 3.1622800000000004).
#include "check/FitNumbers.h"
#include "support/TestMain.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <random>

namespace tst_fitnumbers {
using namespace posenc;

class TestFitNumbers : public QObject
{
    Q_OBJECT

private slots:
    void roundingsAreTheDecimalsThemselves()
    {
        const std::vector<double> r = FitNumbers::roundings(std::pow(10000.0, 1.0 / 8.0), 9);
        QCOMPARE(r.size(), std::size_t(10)); // 1..9 digits, and the value itself
        QCOMPARE(r[0], 3.0);
        QCOMPARE(r[5], 3.16228);
        QCOMPARE(r[8], 3.16227766);
        QCOMPARE(FitNumbers::digitsOf(3.16228), 6);
        QCOMPARE(FitNumbers::digitsOf(10000.0), 1);
        QCOMPARE(FitNumbers::digitsOf(500000.0), 1);
        QCOMPARE(FitNumbers::digitsOf(0.0125), 3);
    }

    // Random decimals of 1 to 9 digits over 20 decades, measured a little off: the rounding of
    // their digits is the decimal itself, as the C++ library reads its text.
    void randomDecimals()
    {
        std::mt19937_64 engine(7u);
        for (int k = 0; k < 2000; ++k) {
            const int digits = 1 + int(engine() % 9);
            long long low = 1;
            for (int d = 1; d < digits; ++d)
                low *= 10;
            const long long mantissa = low + (long long)(engine() % std::uint64_t(9 * low));
            const int exponent = int(engine() % 21) - 10 - digits + 1;
            std::array<char, 48> text {};
            const int length = std::snprintf(text.data(), text.size(), "%llde%d", mantissa, exponent);
            double exact = 0.0;
            std::from_chars(text.data(), text.data() + length, exact);
            const std::vector<double> r = FitNumbers::roundings(exact * (1.0 + 1e-13), digits);
            QVERIFY2(std::find(r.begin(), r.end(), exact) != r.end(), text.data());
        }
    }
};

POSENC_TEST_APPLESS_MAIN(TestFitNumbers)
} // namespace tst_fitnumbers
#include "tst_fitnumbers.moc"
