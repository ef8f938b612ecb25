// LoFTR's [C, H, W] sine map read by Sincos2dChannelsFirst, both forms of PositionEncodingSine
// (zju3dv/LoFTR src/loftr/utils/position_encoding.py, __init__): temp_bug_fix=True's
// div_term = exp(arange(0, C//2, 2) * (-ln(10000) / (C//2))) and temp_bug_fix=False's
// exp(arange(0, C//2, 2) * (-ln(10000) / C // 2)), channels 4k..4k+3 sin(x w_k), cos(x w_k),
// sin(y w_k), cos(y w_k) at x, y = cumsum of ones (from 1). The maps are written here in float64
// (rounded to float32) and as torch computes them in float32, at several d_model and max_shape:
// the fixed form correct, the floored one a variant undeclared and div-term-floored declared.
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "check/sincos2d/Sincos2dChannelsFirst.h"

#include <QtTest>

#include <cmath>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// Python's float floor division, as `(-math.log(10000.0) / d_model) // 2` computes it.
double pyFloorDiv(double a, double b)
{
    return std::floor(a / b);
}

// The map [C, H, W] as C·H rows of W; `float32`: torch's arithmetic (div_term's product and exp,
// x * div_term and the sine in float32), else float64 rounded once.
std::shared_ptr<const TableRows> loftrMap(std::int64_t c, std::int64_t h, std::int64_t w, bool fixed, bool float32)
{
    const double factor = fixed ? -std::log(10000.0) / double(c / 2) : pyFloorDiv(-std::log(10000.0) / double(c), 2.0);
    auto m = std::make_shared<RowMatrixXf>(c * h, w);
    for (std::int64_t ch = 0; ch < c; ++ch) {
        const std::int64_t k = ch / 4;
        const double w64 = std::exp(double(2 * k) * factor);
        const float w32 = std::exp(float(2 * k) * float(factor));
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x) {
                const std::int64_t coordinate = (ch % 4) < 2 ? x + 1 : y + 1;
                const bool sine = ch % 2 == 0;
                float v = 0.0f;
                if (float32) {
                    const float angle = float(coordinate) * w32;
                    v = sine ? std::sin(angle) : std::cos(angle);
                } else {
                    const double angle = double(coordinate) * w64;
                    v = float(sine ? std::sin(angle) : std::cos(angle));
                }
                (*m)(ch * h + y, x) = v;
            }
    }
    return std::make_shared<MatrixRows>(std::move(m), StoredType::Float32, u"loftr"_s);
}

} // namespace

class TestSincos2dChannelsFirst : public QObject
{
    Q_OBJECT

private slots:
    // The floored factor: -1 from d_model 8 up (LoFTR's 256 included), as Python computes it.
    void flooredFactor()
    {
        for (const std::int64_t c : {8, 32, 128, 256, 1024})
            QCOMPARE(Sincos2dChannelsFirst::divTermFactor(c, true), pyFloorDiv(-std::log(10000.0) / double(c), 2.0));
        QCOMPARE(Sincos2dChannelsFirst::divTermFactor(256, true), -1.0);
        QCOMPARE(Sincos2dChannelsFirst::divTermFactor(256, false), -std::log(10000.0) / 128.0);
    }

    void bothForms_data()
    {
        QTest::addColumn<qint64>("c");
        QTest::addColumn<qint64>("h");
        QTest::addColumn<qint64>("w");
        QTest::addColumn<bool>("leadingOne");
        QTest::addColumn<bool>("float32");
        const struct { qint64 c, h, w; } sizes[] = {{8, 2, 2}, {32, 12, 20}, {64, 60, 80}, {256, 16, 16},
                                                    {256, 80, 60}, {128, 3, 200}};
        for (const auto &s : sizes)
            for (const bool one : {false, true})
                for (const bool f32 : {false, true})
                    QTest::addRow("C %lld, %lld x %lld%s%s", s.c, s.h, s.w, one ? ", [1, C, H, W]" : "",
                                  f32 ? ", float32" : "")
                        << s.c << s.h << s.w << one << f32;
    }
    // Each size, each form, each arithmetic: the fixed form correct undeclared and declared, the
    // floored one a variant naming temp_bug_fix=False undeclared, div-term-floored declared.
    void bothForms()
    {
        QFETCH(qint64, c);
        QFETCH(qint64, h);
        QFETCH(qint64, w);
        QFETCH(bool, leadingOne);
        QFETCH(bool, float32);
        std::vector<std::int64_t> shape {c, h, w};
        if (leadingOne)
            shape.insert(shape.begin(), 1);
        const auto fixed = loftrMap(c, h, w, true, float32);
        const auto floored = loftrMap(c, h, w, false, float32);
        const auto fixedRead = Sincos2dChannelsFirst::read(shape, *fixed, false);
        QVERIFY(fixedRead);
        QCOMPARE(fixedRead->verdict, CheckVerdict::Correct);
        QVERIFY(fixedRead->correctAgainst.contains(u"temp_bug_fix=True"_s));
        const auto fixedDeclared = Sincos2dChannelsFirst::read(shape, *fixed, true);
        QVERIFY(fixedDeclared);
        QCOMPARE(fixedDeclared->verdict, CheckVerdict::Correct);
        const auto variant = Sincos2dChannelsFirst::read(shape, *floored, false);
        QVERIFY(variant);
        if (c >= 8) {
            QCOMPARE(variant->verdict, CheckVerdict::Variant);
            QVERIFY(variant->mistakes.isEmpty());
            QVERIFY2(variant->diagnosis.contains(u"temp_bug_fix=False"_s), qPrintable(variant->diagnosis));
            QVERIFY(variant->diagnosis.contains(u"cvpr_ds_config.py"_s));
            const auto mistake = Sincos2dChannelsFirst::read(shape, *floored, true);
            QVERIFY(mistake);
            QCOMPARE(mistake->verdict, CheckVerdict::Mistake);
            QCOMPARE(mistake->mistakes, QStringList {Sincos2dChannelsFirst::kDivTermFloored});
        }
    }

    // A map over 2^24 cells (the old whole-map limit) is read a channel at a time.
    void largeMap()
    {
        const auto floored = loftrMap(8, 1500, 1450, false, false);
        const auto m = Sincos2dChannelsFirst::read({1, 8, 1500, 1450}, *floored, false);
        QVERIFY(m);
        QCOMPARE(m->verdict, CheckVerdict::Variant);
    }

    // Not LoFTR's: a cell changed, rows the shape does not give, a width not a multiple of 4.
    void notLoftr()
    {
        const auto fixed = loftrMap(32, 12, 20, true, false);
        auto changed = std::make_shared<RowMatrixXf>(32 * 12, 20);
        QString error;
        QVERIFY(fixed->read(0, 32 * 12, changed->data(), error));
        (*changed)(5 * 12 + 3, 7) += 0.01f;
        const MatrixRows damaged(changed, StoredType::Float32, u"damaged"_s);
        QVERIFY(!Sincos2dChannelsFirst::read({32, 12, 20}, damaged, false));
        QVERIFY(!Sincos2dChannelsFirst::read({32, 20, 12}, *fixed, false));
        QVERIFY(!Sincos2dChannelsFirst::read({16, 12, 20}, *fixed, false));
        QVERIFY(!Sincos2dChannelsFirst::read({2, 32, 12, 20}, *fixed, false));
        QVERIFY(!Sincos2dChannelsFirst::read({30, 12, 20}, *fixed, false));
    }
};

QTEST_GUILESS_MAIN(TestSincos2dChannelsFirst)
#include "tst_sincos2dchannelsfirst.moc"
