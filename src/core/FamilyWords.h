#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

// A family's words as data (docs/ARCHITECTURE.md, Adding an encoding family): its descriptor's
// words, describe's meanings and its kit rows' words sit in src/core/<family>/<Family>Words.json,
// compiled in by EmbedWords.cmake, so that a family of a kit is its formula, its parameters and a
// words file, not a copy of a sibling's code. Reading a key the file lacks, or of another type,
// stops the program with the file and the key; tst_familywords builds every family and checks
// that it read every key of every file.
namespace posenc {

class FamilyWords
{
public:
    // The words of <name>Words.json ("Alibi"): a file no family has stops the program. Without a
    // name, none: reading any key of it stops the program.
    FamilyWords() = default;
    explicit FamilyWords(const QString &name);

    // The text, the list of texts, the list of [key, meaning] pairs, or the object at `key`.
    QString text(const QString &key) const;
    QStringList texts(const QString &key) const;
    QList<std::pair<QString, QString>> meanings(const QString &key) const;
    FamilyWords part(const QString &key) const;
    bool has(const QString &key) const;

    // From now on, each key read is recorded (tst_familywords; the program records none).
    static void recordReads();
    // Every file's name, and the paths of the keys of `name` that no code has read since
    // recordReads ("rows/alibi/help").
    static QStringList names();
    static QStringList unread(const QString &name);
    // The files as compiled in, each name ("Alibi") with its text: written by EmbedWords.cmake.
    static QList<std::pair<QString, QByteArray>> files();

private:
    FamilyWords(QString name, QString path, QJsonObject object);
    QJsonValue at(const QString &key) const;
    [[noreturn]] void refuse(const QString &key, const char *what) const;

    QString m_name;
    QString m_path; // of this part within the file, "rows/alibi/"
    QJsonObject m_object;
};

} // namespace posenc
