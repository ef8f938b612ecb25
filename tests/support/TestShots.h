#pragma once

// Images a test keeps for a person to look at (a dialog's layout, the two sides of a failed
// comparison): saved only into the directory POSENC_TEST_SHOTS names, so that a test run leaves
// no file behind unless asked to (POSENC_TEST_SHOTS=DIR ctest ...).
#include <QDir>
#include <QImage>
#include <QPixmap>
#include <QString>

namespace TestShots {

// Where the images go, or empty when they are not kept.
inline QString directory()
{
    return qEnvironmentVariable("POSENC_TEST_SHOTS");
}

// Saves `image` as NAME.png in that directory; a note of where, or of how to keep it.
inline QString save(const QImage &image, const QString &name)
{
    using namespace Qt::StringLiterals;
    const QString dir = directory();
    if (dir.isEmpty())
        return u"set POSENC_TEST_SHOTS=DIR to keep %1.png"_s.arg(name);
    const QString path = QDir(dir).filePath(name + u".png"_s);
    return image.save(path) ? u"saved %1"_s.arg(path) : u"could not save %1"_s.arg(path);
}

inline QString save(const QPixmap &pixmap, const QString &name)
{
    return save(pixmap.toImage(), name);
}

} // namespace TestShots
