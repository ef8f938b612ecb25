// GaussianSum and the Faddeeva function against references written here: w(z) by a
// long-double trapezoid rule of its integral, and by erfc on the imaginary axis; Gaussian
// sums by long-double direct summation, with edges, at rows near 2^24.

#include "core/sinusoidal/Faddeeva.h"
#include "core/sinusoidal/GaussianSum.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>
#include <complex>
#include <numbers>

namespace tst_gaussiansum {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// w(z) = (i / pi) integral exp(-t^2) / (z - t) dt for Im z > 0, by the trapezoid rule, whose
// error exp(-2 pi Im z / h) is ~1e-100 here.
std::complex<double> faddeevaByQuadrature(std::complex<double> z)
{
    using C = std::complex<long double>;
    const long double h = 0.005L;
    const C zl(z.real(), z.imag());
    C sum = 0.0L;
    for (int n = -2400; n <= 2400; ++n) {
        const long double t = n * h;
        sum += std::exp(-t * t) / (zl - t);
    }
    const C w = C(0.0L, 1.0L) * sum * h / std::numbers::pi_v<long double>;
    return {static_cast<double>(w.real()), static_cast<double>(w.imag())};
}

// sum_{n = first}^{last} exp(-(n - c)^2 / (2 sigma^2)) exp(i w n), term by term.
std::complex<double> directSum(double omega, double centre, double sigma, std::int64_t first, std::int64_t last)
{
    std::complex<long double> sum = 0.0L;
    for (std::int64_t n = first; n <= last; ++n) {
        const long double u = (static_cast<long double>(n) - centre) / sigma;
        sum += std::polar(std::exp(-u * u / 2.0L), static_cast<long double>(omega) * static_cast<long double>(n));
    }
    return {static_cast<double>(sum.real()), static_cast<double>(sum.imag())};
}

} // namespace

class TestGaussianSum : public QObject
{
    Q_OBJECT

private slots:
    void faddeevaMatchesItsIntegral();
    void faddeevaOnTheImaginaryAxisIsScaledErfc();
    void sumsMatchDirectSummation_data();
    void sumsMatchDirectSummation();
    void emptyWindowSumsToZero();
};

void TestGaussianSum::faddeevaMatchesItsIntegral()
{
    double worst = 0.0;
    for (const double y : {0.25, 0.5, 1.0, 2.0, 4.0, 5.9, 6.1, 11.9, 12.1, 20.0})
        for (double x = -80.0; x <= 80.0; x += 0.731) {
            const std::complex<double> z(x, y);
            const std::complex<double> expected = faddeevaByQuadrature(z);
            worst = std::max(worst, std::abs(faddeeva(z) - expected) / std::abs(expected));
        }
    QVERIFY2(worst < 2e-15, qPrintable(QString::number(worst)));
}

void TestGaussianSum::faddeevaOnTheImaginaryAxisIsScaledErfc()
{
    // w(iy) = exp(y^2) erfc(y), real (a reference that loses accuracy past y ~ 6, where
    // exp(y^2) magnifies the rounding of y^2).
    for (double y = 0.0; y <= 6.0; y += 0.13) {
        const std::complex<double> w = faddeeva({0.0, y});
        const double expected = std::exp(y * y) * std::erfc(y);
        QVERIFY2(std::abs(w.real() - expected) <= 1e-14 * expected && std::abs(w.imag()) < 1e-15,
                 qPrintable(u"y %1: %2 %3 vs %4"_s.arg(y).arg(w.real()).arg(w.imag()).arg(expected)));
    }
}

void TestGaussianSum::sumsMatchDirectSummation_data()
{
    QTest::addColumn<double>("sigma");
    QTest::addColumn<double>("omega");
    for (const double sigma : {1.5, 2.0, 4.8, 37.0, 900.0})
        for (const double omega : {0.0, 1e-4, 3e-3, 0.05, 0.4, 1.0})
            QTest::addRow("sigma %g, w %g", sigma, omega) << sigma << omega;
}

void TestGaussianSum::sumsMatchDirectSummation()
{
    QFETCH(double, sigma);
    QFETCH(double, omega);
    const GaussianSum sum(omega, sigma);
    const std::int64_t edge = (std::int64_t(1) << 24) - 9000; // phases as large as the table's
    const auto reach = static_cast<std::int64_t>(std::ceil(12.0 * sigma));
    double worst = 0.0;
    // A window without edges, one cut on the left at several distances from the centre, and
    // one cut on both sides.
    for (const double offset : {-0.4, 0.0, 0.3, 0.55, 1.0, 2.2, 3.7, 5.5}) {
        for (const double fraction : {0.0, 0.37, 0.5}) {
            const double centre = static_cast<double>(edge) + offset * sigma + fraction;
            const double scale = std::sqrt(2.0 * std::numbers::pi) * sigma;
            const auto check = [&](GaussianWindow window, std::int64_t first, std::int64_t last) {
                const std::complex<double> expected = directSum(omega, centre, sigma, first, last);
                worst = std::max(worst, std::abs(sum(window) - expected) / scale);
            };
            const auto lo = static_cast<std::int64_t>(centre) - reach;
            const auto hi = static_cast<std::int64_t>(centre) + reach;
            check({centre, sigma}, lo, hi);
            check({centre, sigma, static_cast<double>(edge), GaussianWindow::kOpen}, edge, hi);
            const auto last = static_cast<std::int64_t>(std::floor(centre + 0.8 * sigma));
            if (last >= edge)
                check({centre, sigma, static_cast<double>(edge), static_cast<double>(last)}, edge, last);
        }
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
}

void TestGaussianSum::emptyWindowSumsToZero()
{
    const GaussianSum sum(0.3, 10.0);
    QCOMPARE(sum({5.0, 10.0, 7.0, 6.0}), std::complex<double>(0.0));
}

POSENC_TEST_MAIN(TestGaussianSum)
} // namespace tst_gaussiansum
#include "tst_gaussiansum.moc"
