// The .npz reader: numpy's archives (savez, savez_compressed, ZIP64 directories) read array by
// array, and malformed or hostile archives refused with their reason, before anything is
// allocated beyond what the budget allows. The archives are the fuzz target's seeds, written by
// numpy (tests/data/fuzz/npz), and those seeds with one field changed.
#include "io/NpyReader.h"
#include "io/NpzReader.h"
#include "support/TestMain.h"

#include <QFile>
#include <QTest>
#include <QtEndian>

namespace tst_npzreader {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

QByteArray seed(const QString &name)
{
    QFile file(QFINDTESTDATA(u"../data/fuzz/npz/"_s + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing seed");
    return file.readAll();
}

// The first central directory header's offset.
qsizetype central(const QByteArray &bytes)
{
    return bytes.indexOf(QByteArray("PK\x01\x02", 4));
}

QByteArray patched16(QByteArray bytes, qsizetype at, quint16 value)
{
    qToLittleEndian<quint16>(value, bytes.data() + at);
    return bytes;
}

QByteArray patched32(QByteArray bytes, qsizetype at, quint32 value)
{
    qToLittleEndian<quint32>(value, bytes.data() + at);
    return bytes;
}

// The member's array, through the reader's own ways: read in place, or inflated.
ReadResult<RowMatrixXf> arrayOf(ByteSource &archive, const NpzMember &member)
{
    if (!member.deflated) {
        MemberByteSource bytes(archive, member);
        return NpyReader::readMatrix(bytes, RowSelection::all());
    }
    const auto inflated = NpzReader::inflate(archive, member, qint64(1) << 20);
    if (!inflated)
        return inflated.error();
    return NpyReader::readMatrix(inflated.value(), u"member"_s, RowSelection::all());
}

} // namespace

class TestNpzReader : public QObject
{
    Q_OBJECT

private slots:
    void readsNumpysArchives_data();
    void readsNumpysArchives();
    void refusesMalformed_data();
    void refusesMalformed();
    void inflatesWithinTheBudget();
    void choosesByName();
};

void TestNpzReader::readsNumpysArchives_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<bool>("deflated");
    QTest::newRow("savez") << u"stored.npz"_s << QStringList {u"arr_0"_s} << false;
    QTest::newRow("savez, two arrays") << u"two.npz"_s << QStringList {u"pe"_s, u"other"_s} << false;
    QTest::newRow("savez_compressed") << u"deflated.npz"_s << QStringList {u"arr_0"_s, u"b"_s} << true;
    QTest::newRow("ZIP64 local headers, a text member left out") << u"zip64.npz"_s << QStringList {u"pe"_s} << false;
    QTest::newRow("ZIP64 directory") << u"zip64-directory.npz"_s << QStringList {u"pe"_s, u"b"_s} << false;
    QTest::newRow("deflated Fortran int16") << u"fortran.npz"_s << QStringList {u"f"_s} << true;
    QTest::newRow("empty") << u"empty.npz"_s << QStringList {} << false;
}

void TestNpzReader::readsNumpysArchives()
{
    QFETCH(QString, file);
    QFETCH(QStringList, names);
    QFETCH(bool, deflated);
    const QByteArray bytes = seed(file);
    MemoryByteSource archive(bytes, file);
    const auto members = NpzReader::members(archive);
    QVERIFY2(members.ok(), qPrintable(members.error().toString()));
    QStringList found;
    for (const NpzMember &member : members.value())
        found.append(member.name);
    QCOMPARE(found, names);
    if (names.isEmpty())
        return;
    const NpzMember &first = members->front();
    QCOMPARE(first.deflated, deflated);
    const auto array = arrayOf(archive, first);
    QVERIFY2(array.ok(), qPrintable(array.error().toString()));
    // Every seed's first array is numpy.arange(12).reshape(3, 4), in its own dtype and order.
    QCOMPARE(array->rows(), 3);
    QCOMPARE(array->cols(), 4);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c)
            QCOMPARE(array.value()(r, c), float(4 * r + c));
    }
}

void TestNpzReader::refusesMalformed_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QByteArray stored = seed(u"stored.npz"_s);
    const QByteArray deflated = seed(u"deflated.npz"_s);
    const qsizetype at = central(stored);
    QTest::newRow("cut short") << stored.left(stored.size() / 2) << u"no end of a zip archive's directory"_s;
    QTest::newRow("too short") << QByteArray("PK\x03\x04", 4) << u"too short for a .npz file"_s;
    QTest::newRow("encrypted") << patched16(stored, at + 8, 1) << u"is encrypted"_s;
    QTest::newRow("another method") << patched16(stored, at + 10, 12) << u"compressed with method 12"_s;
    QTest::newRow("stored, sizes differ") << patched32(stored, at + 20, 3) << u"is stored, but its sizes differ"_s;
    QTest::newRow("local header elsewhere") << patched32(stored, at + 42, 7) << u"has no local header at byte 7"_s;
    QTest::newRow("member past the end") << patched32(patched32(stored, at + 20, 1 << 30), at + 24, 1 << 30)
                                         << u"runs past the end of the file"_s;
    QTest::newRow("ZIP64 sizes without their field")
        << patched32(patched32(stored, at + 20, 0xffffffff), at + 24, 0xffffffff) << u"malformed ZIP64 field"_s;
    const qsizetype end = stored.lastIndexOf(QByteArray("PK\x05\x06", 4));
    QTest::newRow("more members than the directory holds")
        << patched16(patched16(stored, end + 8, 9000), end + 10, 9000) << u"claims 9000 members"_s;
    QTest::newRow("several disks") << patched16(stored, end + 4, 1) << u"spans several disks"_s;
    const qsizetype compressed = central(deflated);
    MemoryByteSource deflatedSource(deflated, u"deflated.npz"_s);
    const qint64 data = NpzReader::members(deflatedSource)->front().dataOffset;
    QByteArray corrupt = deflated;
    corrupt[data + 20] = char(corrupt[data + 20] ^ 0x5a);
    QTest::newRow("deflated data changed") << corrupt << u"array 'arr_0': "_s;
    QTest::newRow("a CRC that does not match")
        << patched32(deflated, compressed + 16, 0x12345678) << u"its CRC-32 does not match"_s;
    QTest::newRow("inflates past its size")
        << patched32(deflated, compressed + 24, 64) << u"inflates past its declared 64 bytes"_s;
    // zipfile's two members of one name (duplicate.npz: arange(12) then zeros, both pe.npy):
    // np.load lists 'pe' twice and reads the zeros; the reader took the first, and its check said
    // "correct" of a table numpy reads as zeros.
    QTest::newRow("one name twice") << seed(u"duplicate.npz"_s) << u"two members are named 'pe.npy'"_s;
}

void TestNpzReader::refusesMalformed()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    MemoryByteSource archive(bytes, u"t.npz"_s);
    const auto members = NpzReader::members(archive);
    QString reason;
    if (!members) {
        reason = members.error().reason;
        QCOMPARE(members.error().kind, ReadError::Kind::File);
    } else {
        QVERIFY(!members->empty());
        const auto array = arrayOf(archive, members->front());
        QVERIFY(!array.ok());
        reason = array.error().reason;
    }
    QVERIFY2(reason.contains(message), qPrintable(reason));
}

// Before a byte is allocated: a member whose .npy would pass the budget is refused as over it.
void TestNpzReader::inflatesWithinTheBudget()
{
    const QByteArray bytes = seed(u"deflated.npz"_s);
    MemoryByteSource archive(bytes, u"t.npz"_s);
    const auto members = NpzReader::members(archive);
    QVERIFY(members.ok());
    const NpzMember &member = members->front();
    const auto refused = NpzReader::inflate(archive, member, member.bytes - 1);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, ReadError::Kind::OverBudget);
    QVERIFY(NpzReader::inflate(archive, member, member.bytes).ok());
}

void TestNpzReader::choosesByName()
{
    const QByteArray bytes = seed(u"two.npz"_s);
    MemoryByteSource archive(bytes, u"two.npz"_s);
    const auto members = NpzReader::members(archive);
    QVERIFY(members.ok());
    QCOMPARE(NpzReader::choose(members.value(), u"other"_s, u"two.npz"_s)->name, u"other"_s);
    QCOMPARE(NpzReader::choose(members.value(), u"other.npy"_s, u"two.npz"_s)->name, u"other"_s);
    const auto none = NpzReader::choose(members.value(), std::nullopt, u"two.npz"_s);
    QVERIFY(!none.ok());
    QCOMPARE(none.error().kind, ReadError::Kind::Choice);
    QCOMPARE(none.error().reason, u"the file holds 2 arrays (pe, other); choose one with FILE:NAME"_s);
    QVERIFY(!NpzReader::choose(members.value(), u"missing"_s, u"two.npz"_s).ok());
}

POSENC_TEST_GUILESS_MAIN(TestNpzReader)
} // namespace tst_npzreader
#include "tst_npzreader.moc"
