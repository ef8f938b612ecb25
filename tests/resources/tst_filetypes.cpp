// The file types posenc opens (resources/org.posenc.Explorer.xml) as the desktop meets them:
// compiled by shared-mime-info's update-mime-database without a complaint, they name sessions
// (.posenc, or by their content), .npy (also by its magic) and .safetensors files, and
// the desktop entry offers the program for exactly these types and passes it the files (%F).
#include "core/Params.h"
#include "io/SessionFile.h"
#include "support/TestMain.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QMimeDatabase>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace tst_filetypes {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

const QString kResources = QStringLiteral(POSENC_RESOURCES);
const QString kMimeXml = kResources + u"/org.posenc.Explorer.xml"_s;
const QString kDesktopEntry = kResources + u"/org.posenc.Explorer.desktop"_s;

struct Ran
{
    int exitCode = -1;
    QString output; // stdout and stderr
};

Ran run(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit)
        return {};
    return {process.exitCode(), QString::fromUtf8(process.readAll())};
}

QStringList definedTypes()
{
    QFile file(kMimeXml);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList types;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"mime-type"_s)
            types << xml.attributes().value(u"type"_s).toString();
    }
    return xml.hasError() ? QStringList {} : types;
}

// The keys of the desktop entry's [Desktop Entry] group.
QMap<QString, QString> desktopEntry()
{
    QFile file(kDesktopEntry);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    QMap<QString, QString> keys;
    for (const QString &line : QString::fromUtf8(file.readAll()).split(u'\n')) {
        const qsizetype equals = line.indexOf(u'=');
        if (equals > 0)
            keys.insert(line.left(equals), line.mid(equals + 1));
    }
    return keys;
}

} // namespace

class TestFileTypes : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void updateMimeDatabaseAcceptsTheTypes();
    void filesGetTheirType_data();
    void filesGetTheirType();
    void desktopEntryOpensExactlyTheseTypes();
    void desktopEntryValidates();

private:
    QString file(const QString &name, const QByteArray &content);

    QTemporaryDir m_dir;
    QString m_update; // update-mime-database's output
    int m_updateExit = -1;
};

// A MIME database of the system's types and ours, in a temporary directory, read through
// XDG_DATA_DIRS as the desktop reads it.
void TestFileTypes::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString mime = m_dir.filePath(u"share/mime"_s);
    QVERIFY(QDir().mkpath(mime + u"/packages"_s));
    QVERIFY(QFile::copy(kMimeXml, mime + u"/packages/org.posenc.Explorer.xml"_s));
    const QString update = QStandardPaths::findExecutable(u"update-mime-database"_s);
    QVERIFY2(!update.isEmpty(), "update-mime-database (shared-mime-info) is not installed");
    const Ran ran = run(update, {mime});
    m_updateExit = ran.exitCode;
    m_update = ran.output;
    QVERIFY(QDir().mkpath(m_dir.filePath(u"home"_s)));
    qputenv("XDG_DATA_HOME", QFile::encodeName(m_dir.filePath(u"home"_s)));
    qputenv("XDG_DATA_DIRS", QFile::encodeName(m_dir.filePath(u"share"_s) + u":/usr/share"_s));
}

void TestFileTypes::updateMimeDatabaseAcceptsTheTypes()
{
    QCOMPARE(m_updateExit, 0);
    // It reports what it does not understand but goes on: a clean run says nothing of ours.
    for (const QString &line : m_update.split(u'\n')) {
        QVERIFY2(!line.contains(u"rror"_s) && !line.contains(u"arning"_s) && !line.contains(u"nknown"_s),
                 qPrintable(m_update));
    }
    QCOMPARE(definedTypes(),
             (QStringList {u"application/x-posenc-session"_s, u"application/x-npy"_s, u"application/x-safetensors"_s}));
}

QString TestFileTypes::file(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(u"files/"_s + name);
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        return {};
    return path;
}

void TestFileTypes::filesGetTheirType_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("type");
    Session lesson = Session::fromParams(Params {});
    lesson.lesson.insert(u"name"_s, u"own-lesson"_s);
    lesson.lesson.insert(u"explanation"_s, QString(300, u'x'));
    QFile npy(QFINDTESTDATA("../data/npy/f4_c.npy"));
    QVERIFY(npy.open(QIODevice::ReadOnly));
    const QByteArray matrix = npy.readAll();
    const QByteArray safetensors = QByteArray("\x20\0\0\0\0\0\0\0", 8)
        + R"({"w":{"dtype":"F32","shape":[0,2],)"
          R"("data_offsets":[0,0]}})";
    const QString session = u"application/x-posenc-session"_s;
    QTest::newRow("a session, .posenc") << u"s.posenc"_s << Session::fromParams(Params {}).toJson() << session;
    // A name says the type: a session saved as .json before is JSON to the desktop, and still
    // opens in posenc. Without a name that says, a session is known by its content.
    QTest::newRow("a session saved as .json")
        << u"s.json"_s << Session::fromParams(Params {}).toJson() << u"application/json"_s;
    QTest::newRow("a session without an extension")
        << u"session"_s << Session::fromParams(Params {}).toJson() << session;
    QTest::newRow("a lesson of one's own, no extension") << u"lesson"_s << lesson.toJson() << session;
    QTest::newRow("other JSON") << u"other.json"_s << QByteArray(R"({"format": "other"})") << u"application/json"_s;
    QTest::newRow(".npy") << u"wte.npy"_s << matrix << u"application/x-npy"_s;
    QTest::newRow(".npy by its magic alone") << u"matrix.bin"_s << matrix << u"application/x-npy"_s;
    QTest::newRow(".safetensors") << u"model.safetensors"_s << safetensors << u"application/x-safetensors"_s;
}

void TestFileTypes::filesGetTheirType()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, type);
    const QString path = file(name, content);
    QVERIFY(!path.isEmpty());
    const QMimeType found = QMimeDatabase().mimeTypeForFile(path);
    QCOMPARE(found.name(), type);
    if (type == u"application/x-posenc-session"_s)
        QVERIFY(found.inherits(u"application/json"_s));
}

void TestFileTypes::desktopEntryOpensExactlyTheseTypes()
{
    const QMap<QString, QString> entry = desktopEntry();
    QStringList types = entry.value(u"MimeType"_s).split(u';', Qt::SkipEmptyParts);
    QStringList defined = definedTypes();
    types.sort();
    defined.sort();
    QCOMPARE(types, defined);
    QCOMPARE(entry.value(u"Exec"_s), u"posenc %F"_s);
}

void TestFileTypes::desktopEntryValidates()
{
    const QString validate = QStandardPaths::findExecutable(u"desktop-file-validate"_s);
    QVERIFY2(!validate.isEmpty(), "desktop-file-validate (desktop-file-utils) is not installed");
    const Ran ran = run(validate, {kDesktopEntry});
    QCOMPARE(ran.exitCode, 0);
    QVERIFY2(ran.output.trimmed().isEmpty(), qPrintable(ran.output));
}

POSENC_TEST_GUILESS_MAIN(TestFileTypes)
} // namespace tst_filetypes
#include "tst_filetypes.moc"
