// The entry point the command line and the window use: FILE[:TENSOR], format detection, the
// listing of a file's tensors, and a file with a real model's shapes (GPT-2 small: 50257 x 768
// token embeddings, 1024 x 768 positions) read with memory bounded by the matrix it returns.
#include "PeakMemory.h"
#include "support/TestMain.h"

#include "io/MatrixFile.h"
#include "io/NpyWriter.h"
#include "support/Sanitizer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <functional>

namespace tst_matrixfile {
using namespace Qt::StringLiterals;
using posenc::MatrixSource;
using posenc::ReadError;
using posenc::RowSelection;
namespace MatrixFile = posenc::MatrixFile;

namespace {

// A .safetensors file of F32 tensors of shape [rows, 2] and cells 0, 1, 2, ... in each, in order.
bool writeSafetensors(const QString &path, const std::vector<std::pair<QString, int>> &tensors)
{
    QJsonObject header;
    qint64 offset = 0;
    QByteArray data;
    for (const auto &[name, rows] : tensors) {
        header.insert(name,
                      QJsonObject {{u"dtype"_s, u"F32"_s},
                                   {u"shape"_s, QJsonArray {rows, 2}},
                                   {u"data_offsets"_s, QJsonArray {offset, offset + rows * 8}}});
        for (int i = 0; i < rows * 2; ++i) {
            char cellBytes[4];
            qToLittleEndian<float>(float(i), cellBytes);
            data.append(cellBytes, 4);
        }
        offset += rows * 8;
    }
    const QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    char length[8];
    qToLittleEndian<quint64>(quint64(json.size()), length);
    QFile out(path);
    return out.open(QIODevice::WriteOnly) && out.write(QByteArray(length, 8) + json + data) > 0;
}

constexpr qint64 kVocabulary = 50257;
constexpr qint64 kPositions = 1024;
constexpr qint64 kWidth = 768;
constexpr quint32 kSeed = 20240607;

// A seeded cell, exact in float32 and computable for any (r, c) without the rest of the table.
float cell(quint32 seed, qint64 r, qint64 c)
{
    const quint32 h = (quint32(r) * 2654435761u) ^ (quint32(c) * 2246822519u) ^ seed;
    return float(h % 65536u) / 65536.0f - 0.5f;
}

// Writes rows x cols seeded cells as little-endian float32 after `preamble`, a row at a time.
bool writeSeeded(QFile &file, qint64 rows, qint64 cols, quint32 seed)
{
    QByteArray row(cols * 4, Qt::Uninitialized);
    for (qint64 r = 0; r < rows; ++r) {
        for (qint64 c = 0; c < cols; ++c)
            qToLittleEndian<float>(cell(seed, r, c), row.data() + c * 4);
        if (file.write(row) != row.size())
            return false;
    }
    return true;
}

// What reading may cost beyond the matrix it returns: the reader's chunk buffers (a few MiB),
// and under AddressSanitizer its shadow memory (an eighth) and allocator bookkeeping.
qint64 allowedGrowth(qint64 matrixBytes)
{
#if defined(POSENC_TEST_ASAN)
    return matrixBytes + matrixBytes / 8 + (qint64(48) << 20);
#else
    return matrixBytes + (qint64(12) << 20);
#endif
}

} // namespace

class TestMatrixFile : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void parsesSource_data();
    void parsesSource();
    void refusesFiles_data();
    void refusesFiles();
    void choosesAnyTensorName_data();
    void choosesAnyTensorName();
    void listsTensors();
    void inspectGivesShapeOfChosenMatrix();
    void realModelShapesNpy();
    void realModelShapesSafetensors();

private:
    QTemporaryDir m_dir;
    QString path(const QString &name) const { return m_dir.filePath(name); }
};

void TestMatrixFile::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile(path(u"has:colon.npy"_s)).open(QIODevice::WriteOnly);
    QVERIFY(writeSafetensors(path(u"colon.safetensors"_s), {{u"enc:w"_s, 3}, {u"enc"_s, 2}, {u"w"_s, 1}}));
    QVERIFY(writeSafetensors(path(u"unnamed.safetensors"_s), {{u""_s, 4}, {u"b"_s, 1}}));
}

void TestMatrixFile::parsesSource_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("file");
    QTest::addColumn<std::optional<QString>>("tensor");
    QTest::newRow("file only") << u"a.npy"_s << u"a.npy"_s << std::optional<QString>();
    QTest::newRow("empty tensor name") << u"m.safetensors:"_s << u"m.safetensors"_s << std::optional<QString>(u""_s);
    const QString colon = path(u"colon.safetensors"_s);
    QTest::newRow("colon in the tensor name of an existing file")
        << colon + u":enc:w"_s << colon << std::optional<QString>(u"enc:w"_s);
    QTest::newRow("tensor name ':' of an existing file") << colon + u"::"_s << colon << std::optional<QString>(u":"_s);
    QTest::newRow("file and tensor") << u"m.safetensors:wte"_s << u"m.safetensors"_s
                                     << std::optional<QString>(u"wte"_s);
    QTest::newRow("dotted tensor name") << u"m.safetensors:transformer.wpe.weight"_s << u"m.safetensors"_s
                                        << std::optional<QString>(u"transformer.wpe.weight"_s);
    QTest::newRow("colon in the directory")
        << u"/x:y/m.safetensors:wte"_s << u"/x:y/m.safetensors"_s << std::optional<QString>(u"wte"_s);
    const QString existing = QDir(QDir::tempPath()).filePath(u"never-there"_s);
    QTest::newRow("missing file with colon") << existing + u":t"_s << existing << std::optional<QString>(u"t"_s);
}

void TestMatrixFile::parsesSource()
{
    QFETCH(QString, text);
    QFETCH(QString, file);
    QFETCH(std::optional<QString>, tensor);
    const MatrixSource source = MatrixSource::parse(text);
    QCOMPARE(source.path, file);
    QCOMPARE(source.tensor, tensor);
    QCOMPARE(source.toString(), text);
    // A file whose own name has a colon is taken whole.
    const QString colon = path(u"has:colon.npy"_s);
    QCOMPARE(MatrixSource::parse(colon).path, colon);
    QVERIFY(!MatrixSource::parse(colon).tensor);
}

// "FILE:" chooses the tensor named "", and a name may hold ':' (the spec allows any string).
void TestMatrixFile::choosesAnyTensorName_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<qint64>("rows");
    QTest::newRow("colon in the name") << u"colon.safetensors:enc:w"_s << qint64(3);
    QTest::newRow("name before the colon") << u"colon.safetensors:enc"_s << qint64(2);
    QTest::newRow("name after the colon") << u"colon.safetensors:w"_s << qint64(1);
    QTest::newRow("empty name") << u"unnamed.safetensors:"_s << qint64(4);
}

void TestMatrixFile::choosesAnyTensorName()
{
    QFETCH(QString, spec);
    QFETCH(qint64, rows);
    const auto loaded = MatrixFile::load(MatrixSource::parse(path(spec)), RowSelection::all());
    QVERIFY2(loaded.ok(), qPrintable(loaded.error().toString()));
    QCOMPARE(qint64(loaded->rows()), rows);
    QCOMPARE(loaded.value()(rows - 1, 1), float(2 * rows - 1));
}

void TestMatrixFile::refusesFiles_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("isChoice");
    QTest::newRow("no such file") << u"missing.npy"_s << u"cannot open the file: no such file"_s << false;
    // Before: "not a regular file", the same words as a pipe's.
    QTest::newRow("a directory") << u"."_s << u"cannot open the file: a directory, not a regular file"_s << false;
    // Before: "no such file" for both, which sends the user looking for a file that is there.
    QTest::newRow("a loop of symbolic links")
        << u"loop.npy"_s << u"cannot open the file: a loop of symbolic links (loop.npy -> other.npy -> loop.npy)"_s
        << false;
    QTest::newRow("a dangling symbolic link") << u"dangling.npy"_s
                                              << u"cannot open the file: a symbolic link to 'gone.npy', which does "
                                                 "not exist"_s
                                              << false;
    // A name a file's text gave (a session, the settings): refused before Qt's QFileInfo sees it.
    QTest::newRow("U+0000 in the name") << u"plain\u0000.npy"_s
                                        << u"cannot open the file: the name holds the character U+0000"_s << false;
    QTest::newRow("unknown format") << u"notes.bin"_s << u"unknown format"_s << false;
    // Before: "unknown format" of an archive and a text table, which posenc check reads.
    QTest::newRow("a text table") << u"notes.txt"_s
                                  << u"a .txt file is not read as a matrix here: save it as a .npy file"_s << false;
    QTest::newRow("an archive") << u"pe.npz"_s << u"a .npz file is not read as a matrix here"_s << false;
    QTest::newRow("tensor of a .npy file")
        << u"plain.npy:wte"_s << u"a .npy file holds one array, so there is no tensor 'wte'"_s << true;
    QTest::newRow(".npy without magic") << u"fake.npy"_s << u"does not start with the magic"_s << false;
    QTest::newRow("missing tensor") << u"two.safetensors:c"_s << u"there is no tensor named 'c'"_s << true;
}

void TestMatrixFile::refusesFiles()
{
    QFETCH(QString, spec);
    QFETCH(QString, message);
    QFETCH(bool, isChoice);
    QTest::failOnWarning(QRegularExpression(u"."_s));
    QVERIFY(!posenc::writeNpy(path(u"plain.npy"_s), posenc::RowMatrixXf::Zero(2, 2)));
    for (const QString &name : {u"notes.txt"_s, u"notes.bin"_s, u"pe.npz"_s}) {
        QFile text(path(name));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("some text that is long enough");
    }
    QFile fake(path(u"fake.npy"_s));
    QVERIFY(fake.open(QIODevice::WriteOnly));
    fake.write("PK\x03\x04 a zip file");
    fake.close();
    QFile two(path(u"two.safetensors"_s));
    QVERIFY(two.open(QIODevice::WriteOnly));
    const QByteArray json = R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]},)"
                            R"("b":{"dtype":"F32","shape":[1,1],"data_offsets":[4,8]}})";
    char length[8];
    qToLittleEndian<quint64>(quint64(json.size()), length);
    two.write(QByteArray(length, 8) + json + QByteArray(8, '\0'));
    two.close();
    QFile::link(u"other.npy"_s, path(u"loop.npy"_s));
    QFile::link(u"loop.npy"_s, path(u"other.npy"_s));
    QFile::link(u"gone.npy"_s, path(u"dangling.npy"_s));

    const QString full = spec == u"."_s ? m_dir.path() : path(spec);
    const MatrixSource source = MatrixSource::parse(full);
    const auto inspected = MatrixFile::inspect(source);
    const auto loaded = MatrixFile::load(source, RowSelection::all());

    QVERIFY(!inspected.ok() && !loaded.ok());
    QVERIFY2(loaded.error().reason.contains(message), qPrintable(loaded.error().toString()));
    QCOMPARE(loaded.error().path, source.path);
    QCOMPARE(inspected.error().reason, loaded.error().reason);
    QCOMPARE(loaded.error().kind, isChoice ? ReadError::Kind::Choice : ReadError::Kind::File);
}

void TestMatrixFile::listsTensors()
{
    const auto st = MatrixFile::list(QFINDTESTDATA("../data/safetensors/model.safetensors"));
    QVERIFY2(st.ok(), qPrintable(st.error().toString()));
    QStringList names, dtypes, shapes;
    for (const auto &info : st.value()) {
        names << info.name;
        dtypes << info.dtype;
        shapes << info.shapeText(false);
    }
    QCOMPARE(names, (QStringList {u"wte"_s, u"wpe"_s, u"ln.bias"_s, u"head"_s, u"ids"_s, u"cube"_s}));
    QCOMPARE(dtypes, (QStringList {u"F32"_s, u"F16"_s, u"BF16"_s, u"F64"_s, u"I64"_s, u"F32"_s}));
    QCOMPARE(shapes.last(), u"[2, 3, 4]"_s);
    const auto npy = MatrixFile::list(QFINDTESTDATA("../data/npy/f8_fortran_big.npy"));
    QVERIFY(npy.ok());
    QCOMPARE(npy->size(), std::size_t(1));
    QCOMPARE(npy->front().dtype, u">f8"_s);
    QCOMPARE(npy->front().shapeText(true), u"(3, 4)"_s);
    // A 3-D array is listed, though it is no matrix.
    const auto cube = MatrixFile::list(QFINDTESTDATA("../data/npy/f4_3d.npy"));
    QVERIFY(cube.ok());
    QCOMPARE(cube->front().shapeText(true), u"(2, 3, 4)"_s);
}

void TestMatrixFile::inspectGivesShapeOfChosenMatrix()
{
    const QString model = QFINDTESTDATA("../data/safetensors/model.safetensors");
    const auto wpe = MatrixFile::inspect(MatrixSource::parse(model + u":wpe"_s));
    QVERIFY(wpe.ok());
    QCOMPARE(wpe->dtype, u"F16"_s);
    QCOMPARE(wpe->shape, (std::vector<std::int64_t> {3, 4}));
    const auto single
        = MatrixFile::inspect(MatrixSource::parse(QFINDTESTDATA("../data/safetensors/single.safetensors")));
    QVERIFY(single.ok());
    QCOMPARE(single->name, u"weight"_s);
}

void TestMatrixFile::realModelShapesNpy()
{
    const QString file = path(u"wte.npy"_s);
    {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        QVERIFY(out.write(posenc::npyHeader(kVocabulary, kWidth)) > 0);
        QVERIFY(writeSeeded(out, kVocabulary, kWidth, kSeed));
    }
    QCOMPARE(QFileInfo(file).size(), 128 + kVocabulary * kWidth * 4);
    const MatrixSource source = MatrixSource::parse(file);

    // The first max_len rows cost their own size, not the file's.
    std::optional<posenc::ReadResult<posenc::RowMatrixXf>> first;
    const qint64 firstGrowth
        = PeakMemory::growth([&] { first = MatrixFile::load(source, RowSelection::first(kPositions)); });
    QVERIFY2(first->ok(), qPrintable(first->error().toString()));
    QCOMPARE(first->value().rows(), kPositions);
    const qint64 firstBytes = kPositions * kWidth * 4;
    QVERIFY2(firstGrowth <= allowedGrowth(firstBytes),
             qPrintable(u"peak grew by %1 bytes for a %2-byte matrix"_s.arg(firstGrowth).arg(firstBytes)));
    QCOMPARE(first->value()(1023, 767), cell(kSeed, 1023, 767));
    first.reset();

    std::optional<posenc::ReadResult<posenc::RowMatrixXf>> all;
    const qint64 allGrowth = PeakMemory::growth([&] { all = MatrixFile::load(source, RowSelection::all()); });
    QVERIFY2(all->ok(), qPrintable(all->error().toString()));
    const qint64 allBytes = kVocabulary * kWidth * 4;
    QVERIFY2(allGrowth <= allowedGrowth(allBytes),
             qPrintable(u"peak grew by %1 bytes for a %2-byte matrix"_s.arg(allGrowth).arg(allBytes)));
    QCOMPARE(all->value().rows(), kVocabulary);
    QCOMPARE(all->value().cols(), kWidth);
    for (const qint64 r : {qint64(0), qint64(1), qint64(777), kVocabulary - 1})
        for (const qint64 c : {qint64(0), qint64(383), kWidth - 1})
            QCOMPARE(all->value()(r, c), cell(kSeed, r, c));
    qInfo("peak growth: first 1024 rows %lld KiB, all rows %lld KiB (matrix %lld KiB)", firstGrowth / 1024,
          allGrowth / 1024, allBytes / 1024);
}

void TestMatrixFile::realModelShapesSafetensors()
{
    const QString file = path(u"gpt2.safetensors"_s);
    const qint64 wteBytes = kVocabulary * kWidth * 4;
    const qint64 wpeBytes = kPositions * kWidth * 4;
    {
        QJsonObject header;
        header.insert(u"__metadata__"_s, QJsonObject {{u"format"_s, u"pt"_s}});
        header.insert(u"wte"_s,
                      QJsonObject {{u"dtype"_s, u"F32"_s},
                                   {u"shape"_s, QJsonArray {kVocabulary, kWidth}},
                                   {u"data_offsets"_s, QJsonArray {0, wteBytes}}});
        header.insert(u"wpe"_s,
                      QJsonObject {{u"dtype"_s, u"F32"_s},
                                   {u"shape"_s, QJsonArray {kPositions, kWidth}},
                                   {u"data_offsets"_s, QJsonArray {wteBytes, wteBytes + wpeBytes}}});
        const QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
        char length[8];
        qToLittleEndian<quint64>(quint64(json.size()), length);
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(length, 8);
        out.write(json);
        QVERIFY(writeSeeded(out, kVocabulary, kWidth, kSeed));
        QVERIFY(writeSeeded(out, kPositions, kWidth, kSeed + 1));
    }

    const auto listing = MatrixFile::list(file);
    QVERIFY(listing.ok());
    QCOMPARE(listing->size(), std::size_t(2));
    QCOMPARE(listing->at(1).shape, (std::vector<std::int64_t> {kPositions, kWidth}));

    std::optional<posenc::ReadResult<posenc::RowMatrixXf>> wpe;
    const qint64 growth = PeakMemory::growth(
        [&] { wpe = MatrixFile::load(MatrixSource::parse(file + u":wpe"_s), RowSelection::all()); });
    QVERIFY2(wpe->ok(), qPrintable(wpe->error().toString()));
    QVERIFY2(growth <= allowedGrowth(wpeBytes),
             qPrintable(u"peak grew by %1 bytes for a %2-byte matrix"_s.arg(growth).arg(wpeBytes)));
    QCOMPARE(wpe->value()(0, 0), cell(kSeed + 1, 0, 0));
    QCOMPARE(wpe->value()(1023, 767), cell(kSeed + 1, 1023, 767));

    // Switching tensors: the token embeddings' first rows, then scattered token ids.
    const auto wte = MatrixFile::load(MatrixSource::parse(file + u":wte"_s), RowSelection::listed({50256, 464, 0}));
    QVERIFY(wte.ok());
    QCOMPARE(wte.value()(0, 5), cell(kSeed, 50256, 5));
    QCOMPARE(wte.value()(1, 767), cell(kSeed, 464, 767));
    QCOMPARE(wte.value()(2, 0), cell(kSeed, 0, 0));
}

POSENC_TEST_GUILESS_MAIN(TestMatrixFile)
} // namespace tst_matrixfile
#include "tst_matrixfile.moc"
