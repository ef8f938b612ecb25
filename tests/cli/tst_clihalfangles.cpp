// posenc check with a declared reference (issue 56): a RoPE table whose angles were formed in half
// precision is the mistake half-precision-angles, its pipeline named (each of those that tie where
// the storage hides a stage; inv_freq, the positions, their product rounded to bfloat16 or float16:
// candle's RotaryEmbedding::new before candle#3005, GPT-NeoX's fp16 cache of gpt-neox#1003,
// transformers' LlamaRotaryEmbedding.forward under a bf16 autocast before transformers#29285), while
// the correct line (float32 angles, cos rounded to the dtype) stays correct; and a deviation no
// parameter explains says so and where its cells lie, in rows and columns, as do the rows a mistake
// read from the sample (position-offset) does not hold. The tables are written here: HF's float32
// inv_freq (1 / theta ** (2i / d), the power in float32), each stage rounded to the half format by
// its bits, cos in float32.
#include "CliRun.h"
#include "support/HalfFloats.h"
#include "support/TestMain.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>

namespace tst_clihalfangles {
using namespace Qt::StringLiterals;

namespace {

using halffloats::toBFloat16;
using halffloats::toFloat16;

enum Stage : unsigned { InvFreq = 1, Positions = 2, Product = 4, Output = 8 };

// RoPE's cos in HF's half layout (column j holds pair j mod d/2) at theta and head_dim d, each
// stage in `stages` rounded by `half`: inv_freq, the position, their float32 product, the cos.
double ropeCell(qint64 p, qint64 j, qint64 d, float theta, unsigned stages, float (*half)(float))
{
    const qint64 i = j % (d / 2);
    float inv = 1.0f / std::pow(theta, float(2 * i) / float(d));
    if (stages & InvFreq)
        inv = half(inv);
    float position = float(p);
    if (stages & Positions)
        position = half(position);
    float angle = position * inv;
    if (stages & Product)
        angle = half(angle);
    float value = std::cos(angle);
    if (stages & Output)
        value = half(value);
    return double(value);
}

// The exact cos of RoPE (float64), theta 10000, head_dim 64, and the paper's interleaved sinusoid
// at d 64, base 10000.
double exactRope(qint64 p, qint64 j)
{
    return std::cos(double(p) * std::pow(10000.0, -2.0 * double(j % 32) / 64.0));
}
double exactSinusoid(qint64 p, qint64 j)
{
    const double angle = double(p) * std::pow(10000.0, -2.0 * double(j / 2) / 64.0);
    return j % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// A change no parameter makes: 0.03 to 0.07, varying cell by cell, never one constant.
double damage(qint64 p, qint64 j)
{
    return 0.05 + 0.02 * std::cos(7.0 * double(p) + 3.0 * double(j));
}

QString shown(const QJsonObject &o)
{
    return u"exit %1, %2, %3: %4"_s.arg(o[u"exit"_s].toInt())
        .arg(o[u"verdict"_s].toString(),
             QString::fromUtf8(QJsonDocument(o[u"mistakes"_s].toArray()).toJson(QJsonDocument::Compact)),
             o[u"diagnosis"_s].toString());
}

} // namespace

class TestCliHalfAngles : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    CliRun::TableFiles m_files {m_dir.path()};

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void halfAnglesNamed_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("bfloat16");
        QTest::addColumn<unsigned>("stages");
        QTest::addColumn<QString>("words");
        QTest::newRow("candle, autocast: all in bfloat16")
            << qint64(512) << true << unsigned(InvFreq | Positions | Product | Output)
            << u"the positions, inv_freq and their product p·inv_freq rounded to bfloat16, cos and sin taken of the "
               "rounded angle"_s;
        // GPT-NeoX's cache of a model in half: 1024 positions, each exact in float16.
        QTest::newRow("gpt-neox: all in float16")
            << qint64(1024) << false << unsigned(InvFreq | Positions | Product | Output)
            << u"inv_freq and their product p·inv_freq rounded to float16, cos and sin taken of the rounded angle "
               "(float16 holds every position up to 1023 exactly"_s;
        QTest::newRow("the angle cast before cos")
            << qint64(300) << true << unsigned(Product)
            << u"the angles p·inv_freq, formed in float32, rounded to bfloat16 before cos and sin"_s;
        QTest::newRow("inv_freq cast") << qint64(600) << true << unsigned(InvFreq)
                                       << u"inv_freq rounded to bfloat16 before the angles were formed in float32"_s;
        QTest::newRow("positions cast") << qint64(1024) << true << unsigned(Positions)
                                        << u"positions were rounded to bfloat16"_s;
    }
    // Named against the declared reference, never correct, the pipeline in words and the first
    // position past the rounding.
    void halfAnglesNamed()
    {
        QFETCH(qint64, rows);
        QFETCH(bool, bfloat16);
        QFETCH(unsigned, stages);
        QFETCH(QString, words);
        const QString file = m_files.written(rows, 64, [&](qint64 p, qint64 j) {
            return ropeCell(p, j, 64, 10000.0f, stages, bfloat16 ? toBFloat16 : toFloat16);
        });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(
            file, {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s, u"10000"_s});
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"half-precision-angles"_s});
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(diagnosis.contains(words), qPrintable(shown(o)));
        if (stages != Positions) {
            const auto at
                = QRegularExpression(u"first exceeds the rounding at position (\\d+) \\(row \\1\\)"_s).match(diagnosis);
            QVERIFY2(at.hasMatch(), qPrintable(shown(o)));
            QVERIFY(at.captured(1).toLongLong() < rows);
        }
    }

    // Stages the storage hides give the same cells: float16 inv_freq, positions and product with the
    // cos stored in bfloat16, 8 rows. The pipelines that tie are each said, the one the table was
    // made with among them, and none is claimed.
    void tiedPipelinesAreEachSaid()
    {
        const QString file = m_files.written(8, 64, [](qint64 p, qint64 j) {
            return double(toBFloat16(float(ropeCell(p, j, 64, 10000.0f, InvFreq | Positions | Product, toFloat16))));
        });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(
            file, {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s, u"10000"_s});
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"half-precision-angles"_s});
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(diagnosis.contains(u"which of them the code did does not show"_s), qPrintable(shown(o)));
        QVERIFY2(diagnosis.contains(u"inv_freq and their product p·inv_freq rounded to float16"_s),
                 qPrintable(shown(o)));
        QVERIFY2(diagnosis.contains(u"; or "_s), qPrintable(shown(o)));
    }

    void theCorrectLineStaysCorrect_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("bfloat16");
        QTest::addColumn<unsigned>("stages");
        QTest::newRow("float32 angles, cos to bfloat16") << qint64(512) << true << unsigned(Output);
        QTest::newRow("float32 angles, cos to float16") << qint64(1024) << false << unsigned(Output);
        QTest::newRow("float32 angles and cos") << qint64(512) << true << 0u;
    }
    // transformers' forward after #29285 (autocast disabled, cos().to(x.dtype)): correct.
    void theCorrectLineStaysCorrect()
    {
        QFETCH(qint64, rows);
        QFETCH(bool, bfloat16);
        QFETCH(unsigned, stages);
        const QString file = m_files.written(rows, 64, [&](qint64 p, qint64 j) {
            return ropeCell(p, j, 64, 10000.0f, stages, bfloat16 ? toBFloat16 : toFloat16);
        });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(
            file, {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s, u"10000"_s});
        QVERIFY2(o[u"exit"_s].toInt() == 0 && o[u"verdict"_s].toString() == u"correct"_s, qPrintable(shown(o)));
    }

    void halfAnglesUndeclared_data()
    {
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<qint64>("dim");
        QTest::addColumn<float>("theta");
        QTest::addColumn<bool>("bfloat16");
        QTest::addColumn<unsigned>("stages");
        QTest::addColumn<QString>("verdict");
        // transformers#25681 (Llama's cache after model.half()), candle's bf16 RotaryEmbedding::new.
        QTest::newRow("bfloat16 angles, theta 10000")
            << qint64(512) << qint64(64) << 10000.0f << true << unsigned(InvFreq | Positions | Product | Output)
            << u"mistake"_s;
        QTest::newRow("float16 angles, theta 500000, cos in float32")
            << qint64(1024) << qint64(128) << 500000.0f << false << unsigned(InvFreq | Positions | Product)
            << u"mistake"_s;
        QTest::newRow("float32 angles, cos to bfloat16")
            << qint64(512) << qint64(64) << 10000.0f << true << unsigned(Output) << u"correct"_s;
        QTest::newRow("float32 angles, cos to float16")
            << qint64(1024) << qint64(128) << 500000.0f << false << unsigned(Output) << u"correct"_s;
    }
    // Nothing declared: the base read from the slow pairs (whose angles the half format keeps within
    // its rounding), said as read, and the half pipeline named; the correct line stays correct.
    void halfAnglesUndeclared()
    {
        QFETCH(qint64, rows);
        QFETCH(qint64, dim);
        QFETCH(float, theta);
        QFETCH(bool, bfloat16);
        QFETCH(unsigned, stages);
        QFETCH(QString, verdict);
        const QString file = m_files.written(rows, dim, [&](qint64 p, qint64 j) {
            return ropeCell(p, j, dim, theta, stages, bfloat16 ? toBFloat16 : toFloat16);
        });
        QVERIFY(!file.isEmpty());
        const QJsonObject o = CliRun::checked(file, {});
        QVERIFY2(o[u"verdict"_s].toString() == verdict, qPrintable(shown(o)));
        if (verdict != u"mistake"_s)
            return;
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"half-precision-angles"_s});
        const QString diagnosis = o[u"diagnosis"_s].toString();
        QVERIFY2(
            diagnosis.contains(
                u"nothing declared, the base read from the table: rope_theta %1, which pairs "_s.arg(double(theta))),
            qPrintable(shown(o)));
        QVERIFY2(diagnosis.contains(u"the angles were formed in half precision"_s), qPrintable(shown(o)));
    }

    void unexplainedSaysWhere_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<std::function<bool(qint64, qint64)>>("changed");
        QTest::addColumn<QString>("words");
        using Cells = std::function<bool(qint64, qint64)>;
        QTest::newRow("rope, odd rows") << u"rope"_s << Cells([](qint64 p, qint64) { return p % 2 == 1; })
                                        << u"no parameter of RoPE explains it: 8192 cells deviate from "_s;
        QTest::newRow("rope, odd rows, where")
            << u"rope"_s << Cells([](qint64 p, qint64) { return p % 2 == 1; })
            << u"they lie in every odd row (1, 3, ..., 255: 128 of 256) and every column (64), every cell of them"_s;
        QTest::newRow("rope, a block of rows")
            << u"rope"_s << Cells([](qint64 p, qint64) { return p >= 64 && p < 128; })
            << u"they lie in rows 64..127 (64 of 256) and every column (64), every cell of them"_s;
        QTest::newRow("rope, a band of pairs")
            << u"rope"_s << Cells([](qint64, qint64 j) { return j % 32 >= 8 && j % 32 < 16; })
            << u"they lie in every row (256) and columns 8..15, 40..47 (16 of 64), every cell of them"_s;
        QTest::newRow("rope, one cell") << u"rope"_s << Cells([](qint64 p, qint64 j) { return p == 100 && j == 5; })
                                        << u"no parameter of RoPE explains it: one cell deviates: row 100, column 5"_s;
        QTest::newRow("sinusoid, odd rows") << u"sinusoidal"_s << Cells([](qint64 p, qint64) { return p % 2 == 1; })
                                            << u"no parameter of Sinusoidal PE explains it"_s;
        QTest::newRow("sinusoid, odd rows, where")
            << u"sinusoidal"_s << Cells([](qint64 p, qint64) { return p % 2 == 1; })
            << u"they lie in every odd row (1, 3, ..., 255: 128 of 256) and every column (64), every cell of them"_s;
        QTest::newRow("a reference table, a block of rows")
            << u"table"_s << Cells([](qint64 p, qint64) { return p >= 200; })
            << u"no mistake the check knows explains it"_s;
    }
    // A deviation no parameter explains: the verdict a mistake with none named, the diagnosis saying
    // so and where the cells lie.
    void unexplainedSaysWhere()
    {
        QFETCH(QString, family);
        QFETCH(std::function<bool(qint64, qint64)>, changed);
        QFETCH(QString, words);
        const auto exact = family == u"sinusoidal"_s ? exactSinusoid : exactRope;
        const QString file = m_files.written(
            256, 64, [&](qint64 p, qint64 j) { return exact(p, j) + (changed(p, j) ? damage(p, j) : 0.0); });
        QVERIFY(!file.isEmpty());
        QStringList flags;
        if (family == u"table"_s) {
            const QString reference = m_files.written(256, 64, exact);
            QVERIFY(!reference.isEmpty());
            flags = QStringList {u"--expect-table"_s, reference};
        } else {
            flags = family == u"rope"_s ? QStringList {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s}
                                        : QStringList {u"--expect"_s, u"sinusoidal"_s, u"--d-model"_s, u"64"_s};
        }
        const QJsonObject o = CliRun::checked(file, flags);
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QVERIFY2(o[u"mistakes"_s].toArray().isEmpty(), qPrintable(shown(o)));
        QVERIFY2(o[u"diagnosis"_s].toString().contains(words), qPrintable(shown(o)));
    }

    // A mistake read from the sample is streamed as a correct reading is before the declaration takes
    // its name: RoPE's cos from position 5 with rows 290..299 zeroed, against positions declared from 0
    // (--positions 0:300), is position-offset, and the zeroed rows are said with where they lie, the
    // family declared and undeclared; the same table whole says nothing of them. Without --positions
    // the rows are a window at positions 5..304, said, not judged (issue 56).
    void offsetReadingSaysRowsItDoesNotHold_data()
    {
        QTest::addColumn<bool>("zeroed");
        QTest::newRow("rows 290..299 zeroed") << true;
        QTest::newRow("whole") << false;
    }
    void offsetReadingSaysRowsItDoesNotHold()
    {
        QFETCH(bool, zeroed);
        const QString file = m_files.written(
            300, 64, [&](qint64 p, qint64 j) { return zeroed && p >= 290 ? 0.0 : exactRope(p + 5, j); });
        QVERIFY(!file.isEmpty());
        const QStringList fromZero {u"--positions"_s, u"0:300"_s};
        const QStringList rope {u"--expect"_s, u"rope"_s, u"--head-dim"_s, u"64"_s, u"--rope-theta"_s, u"10000"_s};
        const QJsonObject o = CliRun::checked(file, rope + fromZero);
        QCOMPARE(o[u"exit"_s].toInt(), 1);
        QCOMPARE(o[u"mistakes"_s].toArray(), QJsonArray {u"position-offset"_s});
        const QString diagnosis = o[u"diagnosis"_s].toString();
        // Whole, every row at r + 5: a later chunk, said row by row (RopeRowPositions).
        QVERIFY2(diagnosis.contains(u"positions start at 5"_s) || diagnosis.contains(u"(row r holds position r + 5)"_s),
                 qPrintable(shown(o)));
        const QString where = u"640 cells deviate from the table position-offset makes, which it does not explain: "
                              "they lie in rows 290..299 (10 of 300) and every column (64), every cell of them"_s;
        QVERIFY2(diagnosis.contains(where) == zeroed, qPrintable(shown(o)));
        QVERIFY2(!diagnosis.contains(u"cells deviate"_s) || zeroed, qPrintable(shown(o)));
        // The family undeclared, the same words.
        const QJsonObject found = CliRun::checked(file, fromZero);
        QCOMPARE(found[u"mistakes"_s].toArray(), QJsonArray {u"position-offset"_s});
        QVERIFY2(found[u"diagnosis"_s].toString().contains(where) == zeroed, qPrintable(shown(found)));
        // No positions declared: the window read, said; whole, correct; zeroed, the rows said.
        for (const QStringList &flags : {rope, QStringList {}}) {
            const QJsonObject window = CliRun::checked(file, flags);
            QVERIFY2(!window[u"mistakes"_s].toArray().contains(u"position-offset"_s), qPrintable(shown(window)));
            const QJsonObject positions = window[u"positions"_s].toObject();
            QVERIFY2(positions[u"first"_s].toInt() == 5 && positions[u"last"_s].toInt() == 304
                         && !positions[u"declared"_s].toBool(),
                     qPrintable(shown(window)));
            QVERIFY2((window[u"verdict"_s].toString() == u"correct"_s) != zeroed, qPrintable(shown(window)));
            QVERIFY2(window[u"diagnosis"_s].toString().contains(u"rows 290..299"_s) == zeroed,
                     qPrintable(shown(window)));
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliHalfAngles)
} // namespace tst_clihalfangles
#include "tst_clihalfangles.moc"
