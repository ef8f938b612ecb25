#pragma once

#include "io/Lesson.h"

#include <QDialog>

class QCheckBox;

namespace posenc {

// What the window offers on a first start: the lessons as the questions they answer, one click
// opening one, or the window as it is. Whether it comes back at every start is the user's
// choice, kept by whoever opened it (LessonController).
class StartPanel : public QDialog
{
    Q_OBJECT

public:
    StartPanel(const QList<Lesson> &lessons, bool showAtStart, QWidget *parent = nullptr);

    bool showAtStart() const;

signals:
    void lessonChosen(const QString &name);

private:
    QCheckBox *m_showAtStart;
};

} // namespace posenc
