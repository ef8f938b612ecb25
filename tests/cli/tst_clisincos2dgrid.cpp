// posenc check on a 2-D sin-cos table of a grid that is not square, undeclared (r35's item 9): the
// grid read is said, and that the same table is the other order's output at the exchanged grid with
// its patches numbered width-major (the grid-order bug of RT-DETR before transformers#41380), so that
// a known grid is declared; declared, the grid decides. The tables are written here in float64 from
// huggingface/transformers src/transformers/models/rt_detr/modeling_rt_detr.py,
// RTDetrHybridEncoder.build_2d_sincos_position_embedding: omega = 1 / temperature^(arange(d/4) /
// (d/4)), grid_w, grid_h = meshgrid(arange(W), arange(H), indexing="xy") (the fix) or "ij" (before
// it), rows [h.sin, h.cos, w.sin, w.cos] of the flattened grids; and facebookresearch/mae
// util/pos_embed.py get_2d_sincos_pos_embed (its halves the other way round: [w | h]).
#include "CliCheckRun.h"
#include "NpyBytes.h"
#include "support/DetrReference.h"
#include "support/TestMain.h"

#include <QFile>
#include <QFloat16>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace tst_clisincos2dgrid {
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kDim = 64;

enum class Form { RtDetrFixed, RtDetrIj, Mae };

// [H·W, 64] of `form` on a grid of H rows of W patches.
QByteArray table(Form form, std::int64_t h, std::int64_t w)
{
    const std::int64_t q = kDim / 4;
    std::vector<double> v;
    for (std::int64_t k = 0; k < h * w; ++k) {
        // "xy": row k is (k / W, k % W); "ij" flattens grids of shape (W, H): w = k / H, h = k % H.
        const double row = form == Form::RtDetrIj ? double(k % h) : double(k / w);
        const double column = form == Form::RtDetrIj ? double(k / h) : double(k % w);
        const double first = form == Form::Mae ? column : row;
        const double second = form == Form::Mae ? row : column;
        for (const double x : {first, second}) {
            for (std::int64_t i = 0; i < q; ++i)
                v.push_back(std::sin(x / std::pow(10000.0, double(i) / double(q))));
            for (std::int64_t i = 0; i < q; ++i)
                v.push_back(std::cos(x / std::pow(10000.0, double(i) / double(q))));
        }
    }
    return npy({h * w, kDim}, v);
}

QStringList grid(std::int64_t h, std::int64_t w)
{
    return {u"--expect"_s, u"sincos-2d"_s, u"--grid"_s, u"%1,%2"_s.arg(h).arg(w), u"--d-model"_s, u"64"_s};
}

using CliCheck::Checked;

} // namespace

class TestCliSincos2dGrid : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Checked check(const QByteArray &bytes, const QStringList &flags) { return CliCheck::check(m_dir, bytes, flags); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // RT-DETR's fixed output on 6 x 10: correct at the grid read, which is said, with the exchanged
    // grid's reading and the way to declare it; declared, correct at 6 x 10.
    void fixedSaysItsGrid()
    {
        const QByteArray fixed = table(Form::RtDetrFixed, 6, 10);
        const Checked c = check(fixed, {});
        QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"the grid is 6 x 10"_s) && c.diagnosis().contains(u"10 x 6 grid"_s)
                     && c.diagnosis().contains(u"--grid"_s) && c.diagnosis().contains(u"transformers#41380"_s),
                 qPrintable(c.shown));
        const Checked declared = check(fixed, grid(6, 10));
        QVERIFY2(declared.exit == 0 && declared.verdict() == u"correct"_s, qPrintable(declared.shown));
    }

    // The output before the fix on 6 x 10 reads undeclared as MAE's order on 10 x 6, said with the
    // same words; declared 6 x 10 it is sincos2d-grid-order.
    void buggySaysTheExchangedGrid()
    {
        const QByteArray buggy = table(Form::RtDetrIj, 6, 10);
        const Checked c = check(buggy, {});
        QVERIFY2(c.exit == 0, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(u"the grid is 10 x 6"_s) && c.diagnosis().contains(u"6 x 10 grid"_s)
                     && c.diagnosis().contains(u"width-major"_s),
                 qPrintable(c.shown));
        const Checked declared = check(buggy, grid(6, 10));
        QVERIFY2(declared.exit == 1 && declared.mistakes().contains(u"sincos2d-grid-order"_s),
                 qPrintable(declared.shown));
        // MAE's own table on 10 x 6 is the same numbers.
        QCOMPARE(table(Form::Mae, 10, 6), buggy);
    }

    // A 2-D sine table or map holds a grid's coordinates, no positions: --positions is refused in one
    // line (exit 2), on a table under --grid and on DETR's [C, H, W] map alike.
    void positionsRefused()
    {
        const QStringList window {u"--positions"_s, u"5:65"_s};
        const Checked onTable = check(table(Form::RtDetrFixed, 6, 10), grid(6, 10) + window);
        QVERIFY2(onTable.exit == 2 && onTable.shown.contains(u"--positions:"_s)
                     && onTable.shown.trimmed().count(u'\n') == 0,
                 qPrintable(onTable.shown));
        const QByteArray map = npyOfFloats({64, 12, 16}, detrref::map(64, 12, 16, detrref::Normalize::Detr));
        QVERIFY2(check(map, {}).verdict() == u"correct"_s, qPrintable(check(map, {}).shown));
        const Checked onMap = check(map, {u"--positions"_s, u"5:17"_s});
        QVERIFY2(onMap.exit == 2 && onMap.shown.contains(u"2-D sin-cos"_s), qPrintable(onMap.shown));
    }

    // A padded batch's map whose second image is zero-padded (cropped, then padded after) is the
    // mistake map-padding, and one cell of a map changed is unknown: neither is read as a bias.
    void mapNoFormHoldsIsNoBias()
    {
        std::vector<float> cells = detrref::map(64, 12, 16, detrref::Normalize::Detr);
        std::vector<float> second = detrref::map(64, 12, 16, detrref::Normalize::Detr, 10000.0, false, 7, 5);
        for (std::int64_t c = 0; c < 64; ++c)
            for (std::int64_t y = 0; y < 12; ++y)
                for (std::int64_t x = 0; x < 16; ++x)
                    if (y >= 7 || x >= 5)
                        second[std::size_t((c * 12 + y) * 16 + x)] = 0.0f;
        std::vector<float> batch = cells;
        batch.insert(batch.end(), second.begin(), second.end());
        const Checked padded = check(npyOfFloats({2, 64, 12, 16}, batch), {});
        QVERIFY2(padded.exit == 1 && padded.mistakes() == QJsonArray {u"map-padding"_s}, qPrintable(padded.shown));
        cells[std::size_t((40 * 12 + 3) * 16 + 7)] += 0.01f;
        const Checked changed = check(npyOfFloats({1, 64, 12, 16}, cells), {});
        QVERIFY2(changed.verdict() == u"unknown"_s && changed.mistakes().isEmpty(), qPrintable(changed.shown));
    }

    // A square grid has one reading: nothing said of another.
    void squareSaysNothingMore()
    {
        const Checked c = check(table(Form::Mae, 8, 8), {});
        QVERIFY2(c.exit == 0 && !c.diagnosis().contains(u"width-major"_s), qPrintable(c.shown));
    }

    // A table whose shape is the deviation (hpcaitech/Open-Sora#638: pos_embed built for a square
    // grid of h x h patches where the latent is H x W): against the declared grid it is the grid
    // mistake, the grid read and the declared one said (it was refused, exit 2, "the grid gives a
    // table of ..."); a table of another embed_dim likewise d-model; and rows no grid explains are
    // still refused, both shapes said.
    void anotherGridIsNamed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("words");
        QTest::newRow("square 8 x 8, 4 x 12 declared")
            << table(Form::Mae, 8, 8) << grid(4, 12) << 1 << u"grid: the table is the 2-D sin-cos table of a 8 x 8 grid"_s;
        QTest::newRow("6 x 10, 8 x 8 declared")
            << table(Form::Mae, 6, 10) << grid(8, 8) << 1 << u"a 6 x 10 grid (60 patches)"_s;
        QTest::newRow("RT-DETR 6 x 10, 4 x 4 declared")
            << table(Form::RtDetrFixed, 6, 10) << grid(4, 4) << 1 << u"is 4 x 4 (16 patches)"_s;
        QTest::newRow("embed_dim 64, 128 declared")
            << table(Form::Mae, 6, 10)
            << QStringList {u"--expect"_s, u"sincos-2d"_s, u"--grid"_s, u"6,10"_s, u"--d-model"_s, u"128"_s} << 1
            << u"d-model: the table's embed_dim is 64"_s;
        std::vector<double> flat(std::size_t(61 * kDim));
        for (std::size_t k = 0; k < flat.size(); ++k)
            flat[k] = std::sin(0.37 * double(k * k % 101));
        QTest::newRow("61 rows no grid explains")
            << npy({61, kDim}, flat) << grid(4, 12) << 2 << u"the grid gives a table of 48 x 64; this one is 61 x 64"_s;
    }
    void anotherGridIsNamed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, flags);
        QFETCH(int, exitCode);
        QFETCH(QString, words);
        const Checked c = check(bytes, flags);
        QVERIFY2(c.exit == exitCode, qPrintable(c.shown));
        if (exitCode == 2) {
            QVERIFY2(c.shown.contains(words), qPrintable(c.shown));
            return;
        }
        const QString id = words.startsWith(u"d-model"_s) ? u"d-model"_s : u"grid"_s;
        QVERIFY2(c.verdict() == u"mistake"_s && c.mistakes().first().toString() == id, qPrintable(c.shown));
        QVERIFY2(c.diagnosis().contains(words), qPrintable(c.shown));
    }

    // Deformable DETR's map of a padded batch computed in float16, recorded from transformers'
    // DeformableDetrSinePositionEmbedding.forward by tests/data/make_detr_half_fixture.py: a column
    // (row) the mask pads whole divides by 0 + eps, -0.5 / 1.0133e-6 overflows float16 to -inf, and
    // its sin and cos are NaN, in every y channel of the padded columns and x channel of the padded
    // rows. A faithful computation holds those NaN: the map is Deformable DETR's, correct, in float16
    // and cast to float32 alike, undeclared and against the declared form; a NaN in a valid cell is
    // no form's and is refused (exit 3), as before.
    void detrFloat16PaddingNaN()
    {
        QFile fixture(QStringLiteral(POSENC_DETR_HALF) + u"/deformable_f16_padded.npy"_s);
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        const QByteArray half = fixture.readAll();
        QVERIFY(half.size() > 10);
        const qsizetype data = 10 + (uchar(half[8]) | (uchar(half[9]) << 8));
        QCOMPARE(half.size() - data, qsizetype(2 * 32 * 12 * 16 * 2));
        std::vector<float> cells(std::size_t((half.size() - data) / 2));
        for (std::size_t i = 0; i < cells.size(); ++i) {
            qfloat16 h;
            std::memcpy(&h, half.constData() + data + 2 * qsizetype(i), 2);
            cells[i] = float(h);
        }
        QCOMPARE(std::count_if(cells.begin(), cells.end(), [](float v) { return std::isnan(v); }),
                 std::ptrdiff_t(3392));
        const QStringList declared {u"--expect"_s, u"sincos-2d"_s, u"--map-form"_s, u"deformable-detr"_s};
        for (const QByteArray &bytes : {half, npyOfFloats({2, 32, 12, 16}, cells)}) {
            for (const QStringList &flags : {QStringList(), declared}) {
                const Checked c = check(bytes, flags);
                QVERIFY2(c.exit == 0 && c.verdict() == u"correct"_s, qPrintable(c.shown));
                QVERIFY2(c.diagnosis().contains(u"Deformable DETR"_s) && c.diagnosis().contains(u"image 1 7 x 5"_s)
                             && c.diagnosis().contains(u"NaN"_s),
                         qPrintable(c.shown));
            }
        }
        // A NaN in a valid cell (image 0, channel 3, row 2, column 4): no form's, refused.
        std::vector<float> damaged = cells;
        damaged[std::size_t((3 * 12 + 2) * 16 + 4)] = std::nanf("");
        const Checked refused = check(npyOfFloats({2, 32, 12, 16}, damaged), {});
        QVERIFY2(refused.exit == 3 && refused.shown.contains(u"NaN"_s), qPrintable(refused.shown));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliSincos2dGrid)
} // namespace tst_clisincos2dgrid
#include "tst_clisincos2dgrid.moc"
