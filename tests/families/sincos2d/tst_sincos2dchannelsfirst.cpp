// LoFTR's [C, H, W] sine map read by Sincos2dChannelsFirst, both forms of PositionEncodingSine
// (zju3dv/LoFTR src/loftr/utils/position_encoding.py, __init__): temp_bug_fix=True's
// div_term = exp(arange(0, C//2, 2) * (-ln(10000) / (C//2))) and temp_bug_fix=False's
// exp(arange(0, C//2, 2) * (-ln(10000) / C // 2)), channels 4k..4k+3 sin(x w_k), cos(x w_k),
// sin(y w_k), cos(y w_k) at x, y = cumsum of ones (from 1). The maps are written here in float64
// (rounded to float32) and as torch computes them in float32, at several d_model and max_shape:
// the fixed form correct, the floored one a variant undeclared and div-term-floored declared.
// DETR's [B, C, H, W] map read by Sincos2dDetrMap against PositionEmbeddingSine.forward
// (facebookresearch/detr models/position_encoding.py; Deformable DETR's (cumsum - 0.5)), written
// here in float64 and as torch computes it in float32: each published form correct, another
// temperature, order or layout a variant undeclared and the mistake naming it declared; DAB-DETR's
// and DINO's temperature 20 a published form; a padded batch (each image the form on its valid
// region) and a map flattened to [H·W, C] read as the map itself, against tests/support/DetrReference.h.
#include "check/TableMatch.h"
#include "check/TableRows.h"
#include "check/sincos2d/Sincos2dChannelsFirst.h"
#include "check/sincos2d/Sincos2dDetrMap.h"
#include "support/DetrReference.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QtTest>

#include <cmath>

namespace tst_sincos2dchannelsfirst {
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

// PositionEmbeddingSine's parameters, as its forward reads them.
struct Detr
{
    bool normalize = true;
    bool minusHalf = false; // Deformable DETR's (cumsum - 0.5)
    double temperature = 10000.0;
    bool xFirst = false; // cat((pos_x, pos_y)) where DETR has cat((pos_y, pos_x))
    bool split = false; // cat((sin, cos)) where DETR stacks and flattens
};

// A form of the formula no published form uses, and the mistakes it names against DETR's declared.
struct WrongForm
{
    Detr d;
    QStringList named;
};

// The map [B, C, H, W] as B·C·H rows of W, C = 2 num_pos_feats, no padding: y_embed = cumsum
// along the rows, x_embed along the columns, normalised to e / (n + 1e-6) * 2 pi; dim_t =
// temperature^(2 (j // 2) / num_pos_feats); channel j of a half sin(e / dim_t) for even j, cos for
// odd. `float32`: each step in float32 as torch computes it, else float64 rounded once.
std::shared_ptr<const TableRows> detrMap(std::int64_t b, std::int64_t c, std::int64_t h, std::int64_t w, const Detr &d,
                                         bool float32)
{
    const std::int64_t npf = c / 2;
    auto m = std::make_shared<RowMatrixXf>(b * c * h, w);
    const auto coordinate = [&](std::int64_t i, std::int64_t n) -> double {
        if (!d.normalize)
            return double(i + 1);
        const double offset = d.minusHalf ? 0.5 : 0.0;
        if (float32)
            return double(float((float(i + 1) - float(offset)) / (float(n) + 1e-6f)) * float(2.0 * M_PI));
        return (double(i + 1) - offset) / double(float(double(n) + 1e-6)) * 2.0 * M_PI;
    };
    for (std::int64_t ch = 0; ch < c; ++ch) {
        const bool rowHalf = (ch < npf) != d.xFirst;
        const std::int64_t j = ch % npf;
        const bool sine = d.split ? j < npf / 2 : j % 2 == 0;
        const std::int64_t k = d.split ? 2 * (j % (npf / 2)) : 2 * (j / 2);
        const double exponent = double(k) / double(npf);
        for (std::int64_t y = 0; y < h; ++y)
            for (std::int64_t x = 0; x < w; ++x) {
                const double e = rowHalf ? coordinate(y, h) : coordinate(x, w);
                float v = 0.0f;
                if (float32) {
                    const float angle = float(e) / std::pow(float(d.temperature), float(exponent));
                    v = sine ? std::sin(angle) : std::cos(angle);
                } else {
                    const double angle = e / std::pow(d.temperature, exponent);
                    v = float(sine ? std::sin(angle) : std::cos(angle));
                }
                for (std::int64_t batch = 0; batch < b; ++batch)
                    (*m)((batch * c + ch) * h + y, x) = v;
            }
    }
    return std::make_shared<MatrixRows>(std::move(m), StoredType::Float32, u"detr"_s);
}

// A table's rows read through, the most cells one read asked for kept.
class CountedRows final : public DerivedRows
{
public:
    using DerivedRows::DerivedRows;
    bool read(std::int64_t row0, std::int64_t count, float *out, QString &error) const override
    {
        largest = std::max(largest, count * cols());
        return m_rows->read(row0, count, out, error);
    }
    mutable std::int64_t largest = 0;
};

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
        const struct
        {
            qint64 c, h, w;
        } sizes[] = {{8, 2, 2}, {32, 12, 20}, {64, 60, 80}, {256, 16, 16}, {256, 80, 60}, {128, 3, 200}};
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

    void detrPublished_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<bool>("normalize");
        QTest::addColumn<bool>("minusHalf");
        QTest::addColumn<qint64>("b");
        QTest::addColumn<qint64>("c");
        QTest::addColumn<qint64>("h");
        QTest::addColumn<qint64>("w");
        QTest::addColumn<bool>("float32");
        QTest::addColumn<double>("temperature");
        const struct
        {
            const char *word;
            bool normalize, minusHalf;
            double temperature;
        } forms[] = {{"detr-normalized", true, false, 1e4},
                     {"deformable-detr", true, true, 1e4},
                     {"detr", false, false, 1e4},
                     {"dab-detr", true, false, 20.0}};
        const struct
        {
            qint64 b, c, h, w;
        } sizes[] = {{1, 256, 20, 30}, {2, 64, 12, 16}, {1, 512, 2, 50}};
        for (const auto &f : forms)
            for (const auto &s : sizes)
                for (const bool f32 : {false, true})
                    QTest::addRow("%s, [%lld, %lld, %lld, %lld]%s", f.word, s.b, s.c, s.h, s.w, f32 ? ", float32" : "")
                        << QString::fromLatin1(f.word) << f.normalize << f.minusHalf << s.b << s.c << s.h << s.w << f32
                        << f.temperature;
    }
    // Each published form correct undeclared, declared as the family and as itself; declared as
    // another published form, the mistakes naming the normalisation and the temperature that differ.
    void detrPublished()
    {
        QFETCH(QString, word);
        QFETCH(bool, normalize);
        QFETCH(bool, minusHalf);
        QFETCH(qint64, b);
        QFETCH(qint64, c);
        QFETCH(qint64, h);
        QFETCH(qint64, w);
        QFETCH(bool, float32);
        QFETCH(double, temperature);
        const auto map = detrMap(b, c, h, w, {normalize, minusHalf, temperature}, float32);
        const std::vector<std::int64_t> shape
            = b == 1 ? std::vector<std::int64_t> {c, h, w} : std::vector<std::int64_t> {b, c, h, w};
        const Params declared;
        const auto undeclared = Sincos2dDetrMap::read(shape, *map, nullptr, {});
        QVERIFY(undeclared);
        QVERIFY2(undeclared->verdict == CheckVerdict::Correct, qPrintable(undeclared->diagnosis));
        QVERIFY(undeclared->notes.join(u' ').contains(
            u"read as a [%1·%2, %3] table, channels first"_s.arg(h).arg(w).arg(c)));
        const auto family = Sincos2dDetrMap::read(shape, *map, &declared, {});
        QVERIFY(family && family->verdict == CheckVerdict::Correct);
        const auto itself = Sincos2dDetrMap::read(shape, *map, &declared, word);
        QVERIFY(itself && itself->verdict == CheckVerdict::Correct);
        for (const Sincos2dDetrMap::Published &other : Sincos2dDetrMap::published()) {
            if (other.word == word)
                continue;
            const auto wrong = Sincos2dDetrMap::read(shape, *map, &declared, other.word);
            QVERIFY(wrong);
            QCOMPARE(wrong->verdict, CheckVerdict::Mistake);
            using Sincos2dDetrMap::Coordinate;
            const Coordinate coordinate = !normalize ? Coordinate::Count
                : minusHalf                          ? Coordinate::NormalizedHalf
                                                     : Coordinate::Normalized;
            QStringList named;
            if (other.form.coordinate != coordinate)
                named.append(Sincos2dDetrMap::kNormalization);
            if (other.form.temperature != temperature)
                named.append(Sincos2dDetrMap::kTemperature);
            QCOMPARE(wrong->mistakes, named);
        }
    }

    // Another temperature, the column's half first, sin and cos in halves: a variant undeclared
    // (the nearest published form named), declared as DETR's the mistake naming each.
    void detrWrongForms()
    {
        const WrongForm cases[] = {
            {{true, false, 100.0}, {Sincos2dDetrMap::kTemperature}},
            {{true, false, 10000.0, true}, {Sincos2dDetrMap::kAxesSwapped}},
            {{true, false, 10000.0, false, true}, {Sincos2dDetrMap::kSinCosSplit}},
            {{false, false, 10000.0, true}, {Sincos2dDetrMap::kNormalization, Sincos2dDetrMap::kAxesSwapped}},
        };
        const Params declared;
        for (const auto &k : cases) {
            const auto map = detrMap(1, 256, 20, 30, k.d, true);
            const auto undeclared = Sincos2dDetrMap::read({1, 256, 20, 30}, *map, nullptr, {});
            QVERIFY(undeclared);
            QVERIFY2(undeclared->verdict == CheckVerdict::Variant, qPrintable(undeclared->diagnosis));
            QVERIFY(undeclared->mistakes.isEmpty());
            const auto mistake = Sincos2dDetrMap::read({1, 256, 20, 30}, *map, &declared, u"detr-normalized"_s);
            QVERIFY(mistake);
            QCOMPARE(mistake->verdict, CheckVerdict::Mistake);
            QCOMPARE(mistake->mistakes, k.named);
        }
        // The temperature read back and said with the declared one.
        const auto t20 = Sincos2dDetrMap::read({256, 20, 30}, *detrMap(1, 256, 20, 30, {true, false, 20.0}, false),
                                               &declared, u"detr-normalized"_s);
        QVERIFY2(t20 && t20->diagnosis.contains(u"temperature 20 where the declared form's is 10000"_s),
                 qPrintable(t20 ? t20->diagnosis : QString()));
    }

    // No form holds: a cell changed, a LoFTR map, rows the shape does not give; declared as DETR's,
    // a map no form holds is a mistake said.
    void notDetr()
    {
        const auto map = detrMap(1, 64, 12, 16, {}, false);
        auto changed = std::make_shared<RowMatrixXf>(64 * 12, 16);
        QString error;
        QVERIFY(map->read(0, 64 * 12, changed->data(), error));
        (*changed)(40 * 12 + 3, 7) += 0.01f;
        const MatrixRows damaged(changed, StoredType::Float32, u"damaged"_s);
        // One cell off: unknown, the nearest form and the cell said, never a reading of another kind.
        const auto unknown = Sincos2dDetrMap::read({64, 12, 16}, damaged, nullptr, {});
        QVERIFY(unknown && unknown->verdict == CheckVerdict::Unknown && unknown->mistakes.isEmpty());
        QVERIFY2(unknown->diagnosis.contains(u"channel 40, row 3, column 7"_s), qPrintable(unknown->diagnosis));
        QVERIFY(!Sincos2dDetrMap::read({64, 12, 16}, *loftrMap(64, 12, 16, true, false), nullptr, {}));
        QVERIFY(!Sincos2dDetrMap::read({64, 16, 12}, *map, nullptr, {}));
        const Params declared;
        const auto said = Sincos2dDetrMap::read({64, 12, 16}, damaged, &declared, u"detr"_s);
        QVERIFY(said && said->verdict == CheckVerdict::Mistake && said->mistakes.isEmpty());
    }

    // A padded batch (PositionEmbeddingSine with NestedTensor's mask, the bottom and the right
    // padded): each image the form on its own valid region, the sizes said; Deformable DETR's
    // padded cells compared too, at their float32 coordinate. The padding's cells other than the mask
    // gives them (zeros, as a map cropped and zero-padded after; 0.5 where the other axis's cumsum
    // is 0; the valid region's edge replicated) are the mistake map-padding.
    void detrPadded_data()
    {
        QTest::addColumn<int>("normalize");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<QString>("word");
        using detrref::Normalize;
        QTest::newRow("normalize=True") << int(Normalize::Detr) << 1e4 << u"detr-normalized"_s;
        QTest::newRow("normalize=False") << int(Normalize::None) << 1e4 << u"detr"_s;
        QTest::newRow("Deformable DETR") << int(Normalize::Deformable) << 1e4 << u"deformable-detr"_s;
        QTest::newRow("DAB-DETR") << int(Normalize::Detr) << 20.0 << u"dab-detr"_s;
    }
    void detrPadded()
    {
        QFETCH(int, normalize);
        QFETCH(double, temperature);
        QFETCH(QString, word);
        const auto n = detrref::Normalize(normalize);
        constexpr std::int64_t kC = 64, kH = 12, kW = 16;
        std::vector<float> cells = detrref::map(kC, kH, kW, n, temperature, false, kH, 11);
        const std::vector<float> second = detrref::map(kC, kH, kW, n, temperature, false, 7, 5);
        cells.insert(cells.end(), second.begin(), second.end());
        const auto rows = [&](const std::vector<float> &v, std::int64_t cols) {
            auto m = std::make_shared<RowMatrixXf>(std::int64_t(v.size()) / cols, cols);
            std::copy(v.begin(), v.end(), m->data());
            return std::make_shared<MatrixRows>(std::move(m), StoredType::Float32, u"padded"_s);
        };
        const Params declared;
        for (const QString &form : {QString(), word}) {
            const auto read
                = Sincos2dDetrMap::read({2, kC, kH, kW}, *rows(cells, kW), form.isEmpty() ? nullptr : &declared, form);
            QVERIFY(read);
            QVERIFY2(
                read->verdict == CheckVerdict::Correct
                    && read->referenceText.contains(word == u"dab-detr"_s ? u"DAB-DETR"_s : u"PositionEmbeddingSine"_s),
                qPrintable(read->diagnosis));
            QVERIFY2(read->diagnosis.contains(u"image 0 12 x 11, image 1 7 x 5 of the 12 x 16 map"_s),
                     qPrintable(read->diagnosis));
            QVERIFY(!read->notes.join(u' ').contains(u"not compared"_s));
        }
        // The second image flattened to [H·W, C] over its declared grid reads alike.
        std::vector<float> flat(std::size_t(kC * kH * kW));
        for (std::int64_t c = 0; c < kC; ++c)
            for (std::int64_t p = 0; p < kH * kW; ++p)
                flat[std::size_t(p * kC + c)] = second[std::size_t(c * kH * kW + p)];
        const auto flattened = Sincos2dDetrMap::readFlattened(*rows(flat, kC), kH, kW, &declared, word);
        QVERIFY2(flattened && flattened->verdict == CheckVerdict::Correct
                     && flattened->diagnosis.contains(u"image 0 7 x 5"_s),
                 qPrintable(flattened ? flattened->diagnosis : QString()));
        QVERIFY(!Sincos2dDetrMap::readFlattened(*rows(flat, kC), kW, kH, nullptr, {}));
        // Both images flattened, [2, H·W, C]: read whole, each image's valid region said.
        std::vector<float> both(std::size_t(2 * kC * kH * kW));
        for (std::int64_t b = 0; b < 2; ++b)
            for (std::int64_t c = 0; c < kC; ++c)
                for (std::int64_t p = 0; p < kH * kW; ++p)
                    both[std::size_t((b * kH * kW + p) * kC + c)] = cells[std::size_t((b * kC + c) * kH * kW + p)];
        const auto batch = Sincos2dDetrMap::readFlattened(*rows(both, kC), kH, kW, &declared, word, 2);
        QVERIFY2(batch && batch->verdict == CheckVerdict::Correct
                     && batch->diagnosis.contains(u"image 0 12 x 11, image 1 7 x 5"_s),
                 qPrintable(batch ? batch->diagnosis : QString()));
        // The padding wrong three ways: each the mistake map-padding, the form of the valid regions said.
        const auto at = [&](std::vector<float> &v, std::int64_t c, std::int64_t y, std::int64_t x) -> float & {
            return v[std::size_t(((kC + c) * kH + y) * kW + x)];
        };
        for (const int way : {0, 1, 2}) {
            std::vector<float> wrong = cells;
            for (std::int64_t c = 0; c < kC; ++c)
                for (std::int64_t y = 0; y < kH; ++y)
                    for (std::int64_t x = 0; x < kW; ++x) {
                        const bool rowChannel = c < kC / 2, padded = y >= 7 || x >= 5;
                        if (way == 0 && padded)
                            at(wrong, c, y, x) = 0.0f; // zeros
                        else if (way == 1 && (rowChannel ? x >= 5 : y >= 7))
                            at(wrong, c, y, x) = 0.5f; // where the other axis's cumsum is 0
                        else if (way == 2 && padded)
                            at(wrong, c, y, x) = second[std::size_t((c * kH + std::min<std::int64_t>(y, 6)) * kW
                                                                    + std::min<std::int64_t>(x, 4))]; // replicated
                    }
            const auto read = Sincos2dDetrMap::read({2, kC, kH, kW}, *rows(wrong, kW), nullptr, {});
            QVERIFY2(read && read->verdict == CheckVerdict::Mistake
                         && read->mistakes == QStringList {Sincos2dDetrMap::kPadding},
                     qPrintable(u"%1: %2"_s.arg(way).arg(read ? read->diagnosis : QString())));
            QVERIFY2(read->diagnosis.contains(u"image 1 7 x 5"_s) && read->diagnosis.contains(u"image 1, channel"_s),
                     qPrintable(read->diagnosis));
        }
    }

    // A map computed in bfloat16 (transformers' DeformableDetrSinePositionEmbedding under a bfloat16
    // model: the cumsum, dim_t and the angle in pixel_values.dtype, each step rounded) and stored
    // as float32 is read with bfloat16's rounding: correct, as a float32 computation cast to bfloat16
    // is with a long axis (1000 rows); the same map times 1.05 is not.
    void detrComputedInBFloat16()
    {
        using halffloats::toBFloat16;
        constexpr std::int64_t kC = 64, kH = 12, kW = 16, kNpf = kC / 2;
        for (const bool deformable : {false, true}) {
            std::vector<float> cells;
            for (std::int64_t ch = 0; ch < kC; ++ch) {
                const std::int64_t j = ch % kNpf;
                const float exponent = toBFloat16(toBFloat16(float(2 * (j / 2))) / float(kNpf));
                const float dimT = toBFloat16(std::pow(10000.0f, exponent));
                for (std::int64_t y = 0; y < kH; ++y)
                    for (std::int64_t x = 0; x < kW; ++x) {
                        const std::int64_t s = ch < kNpf ? y + 1 : x + 1, n = ch < kNpf ? kH : kW;
                        const float shifted = toBFloat16(float(s) - (deformable ? 0.5f : 0.0f));
                        const float e = toBFloat16(toBFloat16(shifted / toBFloat16(float(n) + 1e-6f))
                                                   * float(2.0 * M_PI));
                        const float angle = toBFloat16(e / dimT);
                        cells.push_back(toBFloat16(j % 2 == 0 ? std::sin(angle) : std::cos(angle)));
                    }
            }
            auto m = std::make_shared<RowMatrixXf>(kC * kH, kW);
            std::copy(cells.begin(), cells.end(), m->data());
            const auto read = Sincos2dDetrMap::read({kC, kH, kW}, MatrixRows(m, StoredType::Float32, u"bf16"_s),
                                                    nullptr, {});
            QVERIFY2(read && read->verdict == CheckVerdict::Correct
                         && read->unreferenced.contains(u"bfloat16 computation"_s),
                     qPrintable(read ? read->diagnosis : QString()));
            QVERIFY(read->referenceText.contains(deformable ? u"Deformable"_s : u"DETR's"_s));
            *m *= 1.05f;
            const auto scaled = Sincos2dDetrMap::read({kC, kH, kW}, MatrixRows(m, StoredType::Float32, u"x"_s),
                                                      nullptr, {});
            QVERIFY(!scaled || scaled->verdict != CheckVerdict::Correct);
        }
        // A float32 map cast to bfloat16, 1000 rows: neighbouring rows round alike, no padding.
        std::vector<float> tall = detrref::map(64, 1000, 8, detrref::Normalize::Detr);
        for (float &v : tall)
            v = toBFloat16(v);
        auto m = std::make_shared<RowMatrixXf>(64 * 1000, 8);
        std::copy(tall.begin(), tall.end(), m->data());
        for (const StoredType stored : {StoredType::Float32, StoredType::BFloat16}) {
            const auto read = Sincos2dDetrMap::read({64, 1000, 8}, MatrixRows(m, stored, u"tall"_s), nullptr, {});
            QVERIFY2(read && read->verdict == CheckVerdict::Correct && !read->diagnosis.contains(u"padded"_s),
                     qPrintable(read ? read->diagnosis : QString()));
        }
    }

    // The map is read a block at a time, never an image whole (--memory-budget bounds no reader that
    // does not hold it): no read of a [128, 64, 64] map asks for a quarter of its cells.
    void readsWithinABlock()
    {
        const std::vector<float> cells = detrref::map(128, 64, 64, detrref::Normalize::Detr);
        auto m = std::make_shared<RowMatrixXf>(128 * 64, 64);
        std::copy(cells.begin(), cells.end(), m->data());
        const CountedRows counted(std::make_shared<MatrixRows>(m, StoredType::Float32, u"big"_s));
        const auto read = Sincos2dDetrMap::read({128, 64, 64}, counted, nullptr, {});
        QVERIFY(read && read->verdict == CheckVerdict::Correct);
        QVERIFY2(counted.largest > 0 && counted.largest * 4 <= 128 * 64 * 64, qPrintable(QString::number(counted.largest)));
    }
};

POSENC_TEST_GUILESS_MAIN(TestSincos2dChannelsFirst)
} // namespace tst_sincos2dchannelsfirst
#include "tst_sincos2dchannelsfirst.moc"
