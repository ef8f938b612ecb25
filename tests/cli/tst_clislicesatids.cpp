// posenc check CACHE --position-ids IDS of a stack whose every slice has ids of its own (issue 56,
// item 1: transformers' M-RoPE cos before the merge, [3, B, L, D], with the [3, B, L] ids of
// get_rope_index; docs/ARCHITECTURE.md, Checking a table, "Shapes"). The ids are get_rope_index's
// for a prompt of text, an image and text (huggingface/transformers, models/qwen2_vl/
// modeling_qwen2_vl.py, Qwen2VLModel.get_rope_index: text at arange + st_idx on every axis, the image
// at stack([t, h, w]) + text_len + st_idx, text resumed at the largest id + 1), and the cache is
// Qwen2VLRotaryEmbedding.forward's cos (slice [a, b], row r: cos(ids[a, b, r] * inv_freq) for both
// halves of cat((freqs, freqs))), computed here in float64 at Qwen2-VL's rope_theta 1e6, head 128.
#include "CliRun.h"
#include "support/TestMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace tst_clislicesatids {
using namespace Qt::StringLiterals;

namespace {

constexpr int kHead = 128;

QByteArray npy(const char *descr, const std::vector<std::int64_t> &shape, const void *data, qsizetype bytes)
{
    QStringList dims;
    for (const std::int64_t d : shape)
        dims.append(QString::number(d));
    const QByteArray text = (u"("_s + dims.join(u", "_s) + (shape.size() == 1 ? u","_s : u""_s) + u")"_s).toUtf8();
    QByteArray dict = "{'descr': '" + QByteArray(descr) + "', 'fortran_order': False, 'shape': " + text + ", }";
    const qsizetype total = 10 + dict.size() + 1;
    dict.append(QByteArray((64 - total % 64) % 64, ' ')).append('\n');
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out.append(char(dict.size() & 0xff)).append(char(dict.size() >> 8)).append(dict);
    return out + QByteArray(reinterpret_cast<const char *>(data), bytes);
}

using Axes = std::vector<std::vector<std::int64_t>>; // [3][L]: t, h, w

// get_rope_index for one prompt: `before` text tokens, an image of gh x gw merged patches (one
// frame), `after` text tokens.
Axes ropeIndex(int before, int gh, int gw, int after)
{
    Axes ids(3);
    for (int i = 0; i < before; ++i)
        for (auto &axis : ids)
            axis.push_back(i);
    for (int h = 0; h < gh; ++h) {
        for (int w = 0; w < gw; ++w) {
            ids[0].push_back(before);
            ids[1].push_back(before + h);
            ids[2].push_back(before + w);
        }
    }
    const std::int64_t next = before + std::max(gh, gw);
    for (int i = 0; i < after; ++i)
        for (auto &axis : ids)
            axis.push_back(next + i);
    return ids;
}

// Qwen2VLRotaryEmbedding.forward's cos, [3, 1, L, D], each axis at `at[a]`'s positions.
std::vector<float> mropeCos(const Axes &at)
{
    std::vector<float> cos;
    for (const auto &axis : at) {
        for (const std::int64_t p : axis) {
            for (int c = 0; c < kHead; ++c) {
                const int i = c % (kHead / 2);
                const double inv = 1.0 / std::pow(1e6, 2.0 * i / kHead);
                cos.push_back(float(std::cos(double(p) * inv)));
            }
        }
    }
    return cos;
}

std::vector<std::int64_t> flat(const Axes &ids)
{
    std::vector<std::int64_t> v;
    for (const auto &axis : ids)
        v.insert(v.end(), axis.begin(), axis.end());
    return v;
}

} // namespace

class TestCliSlicesAtIds : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(bytes);
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void slices_data()
    {
        QTest::addColumn<QString>("cache"); // which positions the cache's slices are at
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<QString>("said");
        const QStringList declared {u"--expect"_s, u"rope-cos"_s,   u"--rope-theta"_s,
                                    u"1000000"_s,  u"--head-dim"_s, QString::number(kHead)};
        QTest::newRow("M-RoPE cos at get_rope_index's ids")
            << u"ids"_s << declared << u"correct"_s << QString() << u"every one correct"_s;
        QTest::newRow("M-RoPE cos at get_rope_index's ids, undeclared")
            << u"ids"_s << QStringList() << u"correct"_s << QString() << u"rows read at their --position-ids"_s;
        // linkedin/Liger-Kernel#276 ("fix qwen2-vl: create correct rope position_ids when position_ids
        // is None"): without get_rope_index every axis takes arange(L), the image span's h and w too.
        // Fix: call get_rope_index to build the 3-D ids.
        QTest::newRow("1-D positions over the image span (Liger-Kernel#276)")
            << u"arange"_s << declared << u"mistake"_s << u"positions-1d-not-ids"_s << u"one per token"_s;
        // The h and w sections taken the other way round: slice h at w's ids.
        QTest::newRow("h and w swapped") << u"swapped"_s << declared << u"mistake"_s << u"slice-at-other-ids"_s
                                         << u"slice [2, 0]'s ids"_s;
        QTest::newRow("theta 10000 past the text")
            << u"theta"_s << declared << u"mistake"_s << QString() << u"cells deviate"_s;
    }
    void slices()
    {
        QFETCH(QString, cache);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        QFETCH(QString, said);
        const Axes ids = ropeIndex(40, 8, 10, 30);
        const auto length = std::int64_t(ids[0].size());
        Axes at = ids;
        if (cache == u"arange"_s) {
            for (auto &axis : at)
                for (std::int64_t r = 0; r < length; ++r)
                    axis[std::size_t(r)] = r;
        } else if (cache == u"swapped"_s) {
            std::swap(at[1], at[2]);
        }
        std::vector<float> values = mropeCos(at);
        if (cache == u"theta"_s) {
            // The rows at positions past the text prefix from theta 10000.
            for (std::size_t a = 0; a < 3; ++a) {
                for (std::int64_t r = 40; r < length; ++r) {
                    for (int c = 0; c < kHead; ++c) {
                        const double inv = 1.0 / std::pow(1e4, 2.0 * (c % (kHead / 2)) / kHead);
                        values[(a * std::size_t(length) + std::size_t(r)) * kHead + std::size_t(c)]
                            = float(std::cos(double(ids[a][std::size_t(r)]) * inv));
                    }
                }
            }
        }
        const std::vector<std::int64_t> idValues = flat(ids);
        const QString idsFile
            = write(u"ids.npy"_s,
                    npy("<i8", {3, 1, length}, idValues.data(), qsizetype(idValues.size() * sizeof(std::int64_t))));
        const QString cacheFile = write(
            u"cos.npy"_s, npy("<f4", {3, 1, length, kHead}, values.data(), qsizetype(values.size() * sizeof(float))));
        const QStringList args = QStringList {u"check"_s, cacheFile, u"--position-ids"_s, idsFile} + flags;
        const CliRun::Run run = CliRun::posenc(args + QStringList {u"--json"_s});
        const QString shown = run.out + run.err;
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QVERIFY2(o[u"verdict"_s].toString() == verdict, qPrintable(shown));
        QVERIFY2(mistake.isEmpty() || o[u"mistakes"_s].toArray().contains(mistake), qPrintable(shown));
        const CliRun::Run text = CliRun::posenc(args);
        QVERIFY2(text.out.contains(said), qPrintable(text.out + text.err));
    }

    // Torch's own output, recorded by tests/data/make_mrope_ids_fixture.py (Qwen2VLRotaryEmbedding.forward
    // in float32 at get_rope_index's ids): float32 angles are no mistake; the buggy cache of
    // linkedin/Liger-Kernel#276's class is named.
    void recorded_data()
    {
        QTest::addColumn<QString>("cache");
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("mistake");
        const QStringList qwen {u"--rope-theta"_s, u"1000000"_s, u"--head-dim"_s, u"128"_s};
        QTest::newRow("cos, declared") << u"qwen2vl-cos"_s << QStringList {u"--expect"_s, u"rope-cos"_s} + qwen
                                       << u"correct"_s << QString();
        QTest::newRow("cos, undeclared") << u"qwen2vl-cos"_s << QStringList() << u"correct"_s << QString();
        QTest::newRow("sin, declared") << u"qwen2vl-sin"_s << QStringList {u"--expect"_s, u"rope-sin"_s} + qwen
                                       << u"correct"_s << QString();
        QTest::newRow("cos at arange (Liger-Kernel#276), declared")
            << u"qwen2vl-cos-1d"_s << QStringList {u"--expect"_s, u"rope-cos"_s} + qwen << u"mistake"_s
            << u"positions-1d-not-ids"_s;
        QTest::newRow("cos at arange (Liger-Kernel#276), undeclared")
            << u"qwen2vl-cos-1d"_s << QStringList() << u"mistake"_s << u"positions-1d-not-ids"_s;
    }
    void recorded()
    {
        QFETCH(QString, cache);
        QFETCH(QStringList, flags);
        QFETCH(QString, verdict);
        QFETCH(QString, mistake);
        const QString dir = QStringLiteral(POSENC_MROPE_IDS);
        const CliRun::Run run
            = CliRun::posenc(QStringList {u"check"_s, dir + u"/"_s + cache + u".npy"_s, u"--position-ids"_s,
                                          dir + u"/qwen2vl-ids.npy"_s, u"--json"_s}
                             + flags);
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QVERIFY2(o[u"verdict"_s].toString() == verdict, qPrintable(run.out + run.err));
        QVERIFY2(mistake.isEmpty() || o[u"mistakes"_s].toArray().contains(mistake), qPrintable(run.out));
    }

    // Ids that are not the stack's leading dimensions are refused in one line naming the flag.
    void idsOfAnotherShape()
    {
        const Axes ids = ropeIndex(4, 2, 2, 3);
        const std::vector<std::int64_t> idValues = flat(ids);
        const auto length = std::int64_t(ids[0].size());
        const std::vector<float> once = mropeCos(ids);
        std::vector<float> values = once; // [3, 2, L, D]: two batch rows, the ids of one
        values.insert(values.end(), once.begin(), once.end());
        const QString idsFile
            = write(u"ids2.npy"_s,
                    npy("<i8", {3, 1, length}, idValues.data(), qsizetype(idValues.size() * sizeof(std::int64_t))));
        const QString cacheFile = write(
            u"cos2.npy"_s, npy("<f4", {3, 2, length, kHead}, values.data(), qsizetype(values.size() * sizeof(float))));
        const CliRun::Run run = CliRun::posenc({u"check"_s, cacheFile, u"--position-ids"_s, idsFile});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.startsWith(u"posenc check: --position-ids:"_s) && run.err.count(u'\n') == 1,
                 qPrintable(run.err));
    }
};

POSENC_TEST_GUILESS_MAIN(TestCliSlicesAtIds)
} // namespace tst_clislicesatids
#include "tst_clislicesatids.moc"
