import Foundation
import SubCore

// encoding-bench generate FOLDER COUNT   writes COUNT small SRT files (1 to 5 cues) in legacy encodings, named
//                                        <n>.<iconv name>.srt, from sentences written for this benchmark
// encoding-bench detect FILE...          detects each file's encoding as `subfix` does and prints `FILE: NAME`
//                                        (or `FILE: refused`), like uchardet's CLI; then on stderr one line
//                                        `correct N refused N wrong N` judged against the name's encoding

let sentences: [(encodings: [String], lines: [String])] = [
    (["GBK", "GB18030"], ["我们明天早上在车站见面。", "下雨了，记得带伞出门。", "别担心，我们一定能找到办法的。"]),
    (["CP950", "BIG5-HKSCS"], ["我們明天早上在車站見面。", "下雨了，記得帶傘出門。", "別擔心，我們一定能找到辦法的。"]),
    (["CP932", "EUC-JP"], ["明日の朝、駅の前で待っています。", "雨が降ってきたから、傘を持っていこう。", "心配しないで、きっと何とかなるよ。"]),
    (["CP949"], ["내일 아침 역 앞에서 만나요.", "비가 오니까 우산을 챙기세요.", "걱정하지 마, 방법을 찾을 거야."]),
    (
        ["WINDOWS-1250", "ISO-8859-2"],
        ["Spotkajmy się jutro przy dworcu.", "Pada deszcz, weź ze sobą parasol.", "Nie martw się, znajdziemy sposób."]
    ),
    (
        ["WINDOWS-1250", "ISO-8859-2"],
        ["Zítra ráno se sejdeme u nádraží.", "Prší, vezmi si s sebou deštník.", "Neboj se, určitě najdeme řešení."]
    ),
    (
        ["WINDOWS-1251", "KOI8-R"],
        ["Встретимся завтра у вокзала.", "Идёт дождь, возьми зонтик.", "Не волнуйся, мы найдём выход."]
    ),
    (
        ["WINDOWS-1252", "ISO-8859-15"],
        ["On se retrouve demain à la gare.", "Il pleut, prends ton parapluie.", "Ne t'inquiète pas, ça ira."]
    ),
    (
        ["WINDOWS-1253"],
        ["Θα βρεθούμε αύριο στον σταθμό.", "Βρέχει, πάρε μαζί σου ομπρέλα.", "Μην ανησυχείς, θα βρούμε λύση."]
    ),
    (
        ["WINDOWS-1254"],
        ["Yarın istasyonun önünde buluşalım.", "Yağmur yağıyor, şemsiye al.", "Merak etme, bir yol bulacağız."]
    ),
    (["WINDOWS-1255"], ["ניפגש מחר ליד התחנה.", "יורד גשם, קח מטרייה.", "אל תדאג, נמצא פתרון."]),
    (["WINDOWS-1256"], ["سنلتقي غدا عند المحطة.", "إنها تمطر، خذ مظلة.", "لا تقلق، سنجد حلا."]),
    (["WINDOWS-1257"], ["Susitikime rytoj prie stoties.", "Lyja, pasiimk skėtį.", "Nesijaudink, rasime išeitį."]),
    (
        ["WINDOWS-1258"],
        ["Sáng mai chúng ta gặp nhau ở nhà ga.", "Trời mưa rồi, nhớ mang theo ô.", "Đừng lo, chúng ta sẽ tìm ra cách."]
    ),
    (["CP874"], ["พรุ่งนี้เจอกันที่สถานี", "ฝนตกแล้ว อย่าลืมเอาร่มไปด้วย", "ไม่ต้องห่วง เราต้องหาทางออกได้แน่"]),
]

func srt(_ lines: [String], cues: Int, start: Int) -> String {
    (0..<cues).map { cue in
        "\(cue + 1)\r\n00:00:0\(cue),000 --> 00:00:0\(cue),900\r\n\(lines[(start + cue) % lines.count])\r\n\r\n"
    }.joined()
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "generate":
    guard arguments.count == 4, let count = Int(arguments[3]) else { break }
    let folder = arguments[2]
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let forms = sentences.flatMap { entry in entry.encodings.map { ($0, entry.lines) } }
    for index in 0..<count {
        let (encoding, lines) = forms[index % forms.count]
        let text = srt(lines, cues: 1 + index / forms.count % 5, start: index / forms.count)
        let bytes = try TextDecoder.encode(
            Array(text.utf8), as: TextEncoding(iconvName: encoding), byteOrderMark: false, file: encoding)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(index).\(encoding).srt"))
    }
    exit(0)
case "detect":
    var (correct, refused, wrong) = (0, 0, 0)
    var output = ""
    for path in arguments.dropFirst(2) {
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        let bytes = [UInt8](data)
        let parts = (path as NSString).lastPathComponent.split(separator: ".")
        let label = parts.count >= 3 ? TextEncoding(iconvName: String(parts[parts.count - 2])) : nil
        do {
            let decoded = try TextDecoder.decode(bytes, file: path)
            output += "\(path): \(decoded.encoding.name)\n"
            if let label, let expected = try? TextDecoder.decode(bytes, as: label, file: path) {
                if expected.utf8 == decoded.utf8 { correct += 1 } else { wrong += 1 }
            }
        } catch {
            output += "\(path): refused\n"
            refused += 1
        }
    }
    FileHandle.standardOutput.write(Data(output.utf8))
    FileHandle.standardError.write(Data("correct \(correct) refused \(refused) wrong \(wrong)\n".utf8))
    exit(0)
default:
    break
}
FileHandle.standardError.write(
    Data("usage: encoding-bench generate FOLDER COUNT | encoding-bench detect FILE...\n".utf8))
exit(2)
