// Package benchfuncs is a benchmark fixture for package fingerprint: one
// file of about 25 KB holding 100 top-level funcs and 100 closures, the
// size the performance targets are stated for.
package benchfuncs

import "strings"

// F000 is a top-level func.
func F000(s string, n int) string {
	if n > 0 {
		return strings.Repeat(s, n-0)
	}
	return s + "0"
}

// C000 returns a closure.
func C000(k int) func(int) int {
	return func(x int) int {
		return x*1 + k
	}
}

// F001 is a top-level func.
func F001(s string, n int) string {
	if n > 1 {
		return strings.Repeat(s, n-1)
	}
	return s + "1"
}

// C001 returns a closure.
func C001(k int) func(int) int {
	return func(x int) int {
		return x*2 + k
	}
}

// F002 is a top-level func.
func F002(s string, n int) string {
	if n > 2 {
		return strings.Repeat(s, n-2)
	}
	return s + "2"
}

// C002 returns a closure.
func C002(k int) func(int) int {
	return func(x int) int {
		return x*3 + k
	}
}

// F003 is a top-level func.
func F003(s string, n int) string {
	if n > 3 {
		return strings.Repeat(s, n-3)
	}
	return s + "3"
}

// C003 returns a closure.
func C003(k int) func(int) int {
	return func(x int) int {
		return x*4 + k
	}
}

// F004 is a top-level func.
func F004(s string, n int) string {
	if n > 4 {
		return strings.Repeat(s, n-4)
	}
	return s + "4"
}

// C004 returns a closure.
func C004(k int) func(int) int {
	return func(x int) int {
		return x*5 + k
	}
}

// F005 is a top-level func.
func F005(s string, n int) string {
	if n > 5 {
		return strings.Repeat(s, n-5)
	}
	return s + "5"
}

// C005 returns a closure.
func C005(k int) func(int) int {
	return func(x int) int {
		return x*6 + k
	}
}

// F006 is a top-level func.
func F006(s string, n int) string {
	if n > 6 {
		return strings.Repeat(s, n-6)
	}
	return s + "6"
}

// C006 returns a closure.
func C006(k int) func(int) int {
	return func(x int) int {
		return x*7 + k
	}
}

// F007 is a top-level func.
func F007(s string, n int) string {
	if n > 7 {
		return strings.Repeat(s, n-7)
	}
	return s + "7"
}

// C007 returns a closure.
func C007(k int) func(int) int {
	return func(x int) int {
		return x*8 + k
	}
}

// F008 is a top-level func.
func F008(s string, n int) string {
	if n > 8 {
		return strings.Repeat(s, n-8)
	}
	return s + "8"
}

// C008 returns a closure.
func C008(k int) func(int) int {
	return func(x int) int {
		return x*9 + k
	}
}

// F009 is a top-level func.
func F009(s string, n int) string {
	if n > 9 {
		return strings.Repeat(s, n-9)
	}
	return s + "9"
}

// C009 returns a closure.
func C009(k int) func(int) int {
	return func(x int) int {
		return x*10 + k
	}
}

// F010 is a top-level func.
func F010(s string, n int) string {
	if n > 10 {
		return strings.Repeat(s, n-10)
	}
	return s + "10"
}

// C010 returns a closure.
func C010(k int) func(int) int {
	return func(x int) int {
		return x*11 + k
	}
}

// F011 is a top-level func.
func F011(s string, n int) string {
	if n > 11 {
		return strings.Repeat(s, n-11)
	}
	return s + "11"
}

// C011 returns a closure.
func C011(k int) func(int) int {
	return func(x int) int {
		return x*12 + k
	}
}

// F012 is a top-level func.
func F012(s string, n int) string {
	if n > 12 {
		return strings.Repeat(s, n-12)
	}
	return s + "12"
}

// C012 returns a closure.
func C012(k int) func(int) int {
	return func(x int) int {
		return x*13 + k
	}
}

// F013 is a top-level func.
func F013(s string, n int) string {
	if n > 13 {
		return strings.Repeat(s, n-13)
	}
	return s + "13"
}

// C013 returns a closure.
func C013(k int) func(int) int {
	return func(x int) int {
		return x*14 + k
	}
}

// F014 is a top-level func.
func F014(s string, n int) string {
	if n > 14 {
		return strings.Repeat(s, n-14)
	}
	return s + "14"
}

// C014 returns a closure.
func C014(k int) func(int) int {
	return func(x int) int {
		return x*15 + k
	}
}

// F015 is a top-level func.
func F015(s string, n int) string {
	if n > 15 {
		return strings.Repeat(s, n-15)
	}
	return s + "15"
}

// C015 returns a closure.
func C015(k int) func(int) int {
	return func(x int) int {
		return x*16 + k
	}
}

// F016 is a top-level func.
func F016(s string, n int) string {
	if n > 16 {
		return strings.Repeat(s, n-16)
	}
	return s + "16"
}

// C016 returns a closure.
func C016(k int) func(int) int {
	return func(x int) int {
		return x*17 + k
	}
}

// F017 is a top-level func.
func F017(s string, n int) string {
	if n > 17 {
		return strings.Repeat(s, n-17)
	}
	return s + "17"
}

// C017 returns a closure.
func C017(k int) func(int) int {
	return func(x int) int {
		return x*18 + k
	}
}

// F018 is a top-level func.
func F018(s string, n int) string {
	if n > 18 {
		return strings.Repeat(s, n-18)
	}
	return s + "18"
}

// C018 returns a closure.
func C018(k int) func(int) int {
	return func(x int) int {
		return x*19 + k
	}
}

// F019 is a top-level func.
func F019(s string, n int) string {
	if n > 19 {
		return strings.Repeat(s, n-19)
	}
	return s + "19"
}

// C019 returns a closure.
func C019(k int) func(int) int {
	return func(x int) int {
		return x*20 + k
	}
}

// F020 is a top-level func.
func F020(s string, n int) string {
	if n > 20 {
		return strings.Repeat(s, n-20)
	}
	return s + "20"
}

// C020 returns a closure.
func C020(k int) func(int) int {
	return func(x int) int {
		return x*21 + k
	}
}

// F021 is a top-level func.
func F021(s string, n int) string {
	if n > 21 {
		return strings.Repeat(s, n-21)
	}
	return s + "21"
}

// C021 returns a closure.
func C021(k int) func(int) int {
	return func(x int) int {
		return x*22 + k
	}
}

// F022 is a top-level func.
func F022(s string, n int) string {
	if n > 22 {
		return strings.Repeat(s, n-22)
	}
	return s + "22"
}

// C022 returns a closure.
func C022(k int) func(int) int {
	return func(x int) int {
		return x*23 + k
	}
}

// F023 is a top-level func.
func F023(s string, n int) string {
	if n > 23 {
		return strings.Repeat(s, n-23)
	}
	return s + "23"
}

// C023 returns a closure.
func C023(k int) func(int) int {
	return func(x int) int {
		return x*24 + k
	}
}

// F024 is a top-level func.
func F024(s string, n int) string {
	if n > 24 {
		return strings.Repeat(s, n-24)
	}
	return s + "24"
}

// C024 returns a closure.
func C024(k int) func(int) int {
	return func(x int) int {
		return x*25 + k
	}
}

// F025 is a top-level func.
func F025(s string, n int) string {
	if n > 25 {
		return strings.Repeat(s, n-25)
	}
	return s + "25"
}

// C025 returns a closure.
func C025(k int) func(int) int {
	return func(x int) int {
		return x*26 + k
	}
}

// F026 is a top-level func.
func F026(s string, n int) string {
	if n > 26 {
		return strings.Repeat(s, n-26)
	}
	return s + "26"
}

// C026 returns a closure.
func C026(k int) func(int) int {
	return func(x int) int {
		return x*27 + k
	}
}

// F027 is a top-level func.
func F027(s string, n int) string {
	if n > 27 {
		return strings.Repeat(s, n-27)
	}
	return s + "27"
}

// C027 returns a closure.
func C027(k int) func(int) int {
	return func(x int) int {
		return x*28 + k
	}
}

// F028 is a top-level func.
func F028(s string, n int) string {
	if n > 28 {
		return strings.Repeat(s, n-28)
	}
	return s + "28"
}

// C028 returns a closure.
func C028(k int) func(int) int {
	return func(x int) int {
		return x*29 + k
	}
}

// F029 is a top-level func.
func F029(s string, n int) string {
	if n > 29 {
		return strings.Repeat(s, n-29)
	}
	return s + "29"
}

// C029 returns a closure.
func C029(k int) func(int) int {
	return func(x int) int {
		return x*30 + k
	}
}

// F030 is a top-level func.
func F030(s string, n int) string {
	if n > 30 {
		return strings.Repeat(s, n-30)
	}
	return s + "30"
}

// C030 returns a closure.
func C030(k int) func(int) int {
	return func(x int) int {
		return x*31 + k
	}
}

// F031 is a top-level func.
func F031(s string, n int) string {
	if n > 31 {
		return strings.Repeat(s, n-31)
	}
	return s + "31"
}

// C031 returns a closure.
func C031(k int) func(int) int {
	return func(x int) int {
		return x*32 + k
	}
}

// F032 is a top-level func.
func F032(s string, n int) string {
	if n > 32 {
		return strings.Repeat(s, n-32)
	}
	return s + "32"
}

// C032 returns a closure.
func C032(k int) func(int) int {
	return func(x int) int {
		return x*33 + k
	}
}

// F033 is a top-level func.
func F033(s string, n int) string {
	if n > 33 {
		return strings.Repeat(s, n-33)
	}
	return s + "33"
}

// C033 returns a closure.
func C033(k int) func(int) int {
	return func(x int) int {
		return x*34 + k
	}
}

// F034 is a top-level func.
func F034(s string, n int) string {
	if n > 34 {
		return strings.Repeat(s, n-34)
	}
	return s + "34"
}

// C034 returns a closure.
func C034(k int) func(int) int {
	return func(x int) int {
		return x*35 + k
	}
}

// F035 is a top-level func.
func F035(s string, n int) string {
	if n > 35 {
		return strings.Repeat(s, n-35)
	}
	return s + "35"
}

// C035 returns a closure.
func C035(k int) func(int) int {
	return func(x int) int {
		return x*36 + k
	}
}

// F036 is a top-level func.
func F036(s string, n int) string {
	if n > 36 {
		return strings.Repeat(s, n-36)
	}
	return s + "36"
}

// C036 returns a closure.
func C036(k int) func(int) int {
	return func(x int) int {
		return x*37 + k
	}
}

// F037 is a top-level func.
func F037(s string, n int) string {
	if n > 37 {
		return strings.Repeat(s, n-37)
	}
	return s + "37"
}

// C037 returns a closure.
func C037(k int) func(int) int {
	return func(x int) int {
		return x*38 + k
	}
}

// F038 is a top-level func.
func F038(s string, n int) string {
	if n > 38 {
		return strings.Repeat(s, n-38)
	}
	return s + "38"
}

// C038 returns a closure.
func C038(k int) func(int) int {
	return func(x int) int {
		return x*39 + k
	}
}

// F039 is a top-level func.
func F039(s string, n int) string {
	if n > 39 {
		return strings.Repeat(s, n-39)
	}
	return s + "39"
}

// C039 returns a closure.
func C039(k int) func(int) int {
	return func(x int) int {
		return x*40 + k
	}
}

// F040 is a top-level func.
func F040(s string, n int) string {
	if n > 40 {
		return strings.Repeat(s, n-40)
	}
	return s + "40"
}

// C040 returns a closure.
func C040(k int) func(int) int {
	return func(x int) int {
		return x*41 + k
	}
}

// F041 is a top-level func.
func F041(s string, n int) string {
	if n > 41 {
		return strings.Repeat(s, n-41)
	}
	return s + "41"
}

// C041 returns a closure.
func C041(k int) func(int) int {
	return func(x int) int {
		return x*42 + k
	}
}

// F042 is a top-level func.
func F042(s string, n int) string {
	if n > 42 {
		return strings.Repeat(s, n-42)
	}
	return s + "42"
}

// C042 returns a closure.
func C042(k int) func(int) int {
	return func(x int) int {
		return x*43 + k
	}
}

// F043 is a top-level func.
func F043(s string, n int) string {
	if n > 43 {
		return strings.Repeat(s, n-43)
	}
	return s + "43"
}

// C043 returns a closure.
func C043(k int) func(int) int {
	return func(x int) int {
		return x*44 + k
	}
}

// F044 is a top-level func.
func F044(s string, n int) string {
	if n > 44 {
		return strings.Repeat(s, n-44)
	}
	return s + "44"
}

// C044 returns a closure.
func C044(k int) func(int) int {
	return func(x int) int {
		return x*45 + k
	}
}

// F045 is a top-level func.
func F045(s string, n int) string {
	if n > 45 {
		return strings.Repeat(s, n-45)
	}
	return s + "45"
}

// C045 returns a closure.
func C045(k int) func(int) int {
	return func(x int) int {
		return x*46 + k
	}
}

// F046 is a top-level func.
func F046(s string, n int) string {
	if n > 46 {
		return strings.Repeat(s, n-46)
	}
	return s + "46"
}

// C046 returns a closure.
func C046(k int) func(int) int {
	return func(x int) int {
		return x*47 + k
	}
}

// F047 is a top-level func.
func F047(s string, n int) string {
	if n > 47 {
		return strings.Repeat(s, n-47)
	}
	return s + "47"
}

// C047 returns a closure.
func C047(k int) func(int) int {
	return func(x int) int {
		return x*48 + k
	}
}

// F048 is a top-level func.
func F048(s string, n int) string {
	if n > 48 {
		return strings.Repeat(s, n-48)
	}
	return s + "48"
}

// C048 returns a closure.
func C048(k int) func(int) int {
	return func(x int) int {
		return x*49 + k
	}
}

// F049 is a top-level func.
func F049(s string, n int) string {
	if n > 49 {
		return strings.Repeat(s, n-49)
	}
	return s + "49"
}

// C049 returns a closure.
func C049(k int) func(int) int {
	return func(x int) int {
		return x*50 + k
	}
}

// F050 is a top-level func.
func F050(s string, n int) string {
	if n > 50 {
		return strings.Repeat(s, n-50)
	}
	return s + "50"
}

// C050 returns a closure.
func C050(k int) func(int) int {
	return func(x int) int {
		return x*51 + k
	}
}

// F051 is a top-level func.
func F051(s string, n int) string {
	if n > 51 {
		return strings.Repeat(s, n-51)
	}
	return s + "51"
}

// C051 returns a closure.
func C051(k int) func(int) int {
	return func(x int) int {
		return x*52 + k
	}
}

// F052 is a top-level func.
func F052(s string, n int) string {
	if n > 52 {
		return strings.Repeat(s, n-52)
	}
	return s + "52"
}

// C052 returns a closure.
func C052(k int) func(int) int {
	return func(x int) int {
		return x*53 + k
	}
}

// F053 is a top-level func.
func F053(s string, n int) string {
	if n > 53 {
		return strings.Repeat(s, n-53)
	}
	return s + "53"
}

// C053 returns a closure.
func C053(k int) func(int) int {
	return func(x int) int {
		return x*54 + k
	}
}

// F054 is a top-level func.
func F054(s string, n int) string {
	if n > 54 {
		return strings.Repeat(s, n-54)
	}
	return s + "54"
}

// C054 returns a closure.
func C054(k int) func(int) int {
	return func(x int) int {
		return x*55 + k
	}
}

// F055 is a top-level func.
func F055(s string, n int) string {
	if n > 55 {
		return strings.Repeat(s, n-55)
	}
	return s + "55"
}

// C055 returns a closure.
func C055(k int) func(int) int {
	return func(x int) int {
		return x*56 + k
	}
}

// F056 is a top-level func.
func F056(s string, n int) string {
	if n > 56 {
		return strings.Repeat(s, n-56)
	}
	return s + "56"
}

// C056 returns a closure.
func C056(k int) func(int) int {
	return func(x int) int {
		return x*57 + k
	}
}

// F057 is a top-level func.
func F057(s string, n int) string {
	if n > 57 {
		return strings.Repeat(s, n-57)
	}
	return s + "57"
}

// C057 returns a closure.
func C057(k int) func(int) int {
	return func(x int) int {
		return x*58 + k
	}
}

// F058 is a top-level func.
func F058(s string, n int) string {
	if n > 58 {
		return strings.Repeat(s, n-58)
	}
	return s + "58"
}

// C058 returns a closure.
func C058(k int) func(int) int {
	return func(x int) int {
		return x*59 + k
	}
}

// F059 is a top-level func.
func F059(s string, n int) string {
	if n > 59 {
		return strings.Repeat(s, n-59)
	}
	return s + "59"
}

// C059 returns a closure.
func C059(k int) func(int) int {
	return func(x int) int {
		return x*60 + k
	}
}

// F060 is a top-level func.
func F060(s string, n int) string {
	if n > 60 {
		return strings.Repeat(s, n-60)
	}
	return s + "60"
}

// C060 returns a closure.
func C060(k int) func(int) int {
	return func(x int) int {
		return x*61 + k
	}
}

// F061 is a top-level func.
func F061(s string, n int) string {
	if n > 61 {
		return strings.Repeat(s, n-61)
	}
	return s + "61"
}

// C061 returns a closure.
func C061(k int) func(int) int {
	return func(x int) int {
		return x*62 + k
	}
}

// F062 is a top-level func.
func F062(s string, n int) string {
	if n > 62 {
		return strings.Repeat(s, n-62)
	}
	return s + "62"
}

// C062 returns a closure.
func C062(k int) func(int) int {
	return func(x int) int {
		return x*63 + k
	}
}

// F063 is a top-level func.
func F063(s string, n int) string {
	if n > 63 {
		return strings.Repeat(s, n-63)
	}
	return s + "63"
}

// C063 returns a closure.
func C063(k int) func(int) int {
	return func(x int) int {
		return x*64 + k
	}
}

// F064 is a top-level func.
func F064(s string, n int) string {
	if n > 64 {
		return strings.Repeat(s, n-64)
	}
	return s + "64"
}

// C064 returns a closure.
func C064(k int) func(int) int {
	return func(x int) int {
		return x*65 + k
	}
}

// F065 is a top-level func.
func F065(s string, n int) string {
	if n > 65 {
		return strings.Repeat(s, n-65)
	}
	return s + "65"
}

// C065 returns a closure.
func C065(k int) func(int) int {
	return func(x int) int {
		return x*66 + k
	}
}

// F066 is a top-level func.
func F066(s string, n int) string {
	if n > 66 {
		return strings.Repeat(s, n-66)
	}
	return s + "66"
}

// C066 returns a closure.
func C066(k int) func(int) int {
	return func(x int) int {
		return x*67 + k
	}
}

// F067 is a top-level func.
func F067(s string, n int) string {
	if n > 67 {
		return strings.Repeat(s, n-67)
	}
	return s + "67"
}

// C067 returns a closure.
func C067(k int) func(int) int {
	return func(x int) int {
		return x*68 + k
	}
}

// F068 is a top-level func.
func F068(s string, n int) string {
	if n > 68 {
		return strings.Repeat(s, n-68)
	}
	return s + "68"
}

// C068 returns a closure.
func C068(k int) func(int) int {
	return func(x int) int {
		return x*69 + k
	}
}

// F069 is a top-level func.
func F069(s string, n int) string {
	if n > 69 {
		return strings.Repeat(s, n-69)
	}
	return s + "69"
}

// C069 returns a closure.
func C069(k int) func(int) int {
	return func(x int) int {
		return x*70 + k
	}
}

// F070 is a top-level func.
func F070(s string, n int) string {
	if n > 70 {
		return strings.Repeat(s, n-70)
	}
	return s + "70"
}

// C070 returns a closure.
func C070(k int) func(int) int {
	return func(x int) int {
		return x*71 + k
	}
}

// F071 is a top-level func.
func F071(s string, n int) string {
	if n > 71 {
		return strings.Repeat(s, n-71)
	}
	return s + "71"
}

// C071 returns a closure.
func C071(k int) func(int) int {
	return func(x int) int {
		return x*72 + k
	}
}

// F072 is a top-level func.
func F072(s string, n int) string {
	if n > 72 {
		return strings.Repeat(s, n-72)
	}
	return s + "72"
}

// C072 returns a closure.
func C072(k int) func(int) int {
	return func(x int) int {
		return x*73 + k
	}
}

// F073 is a top-level func.
func F073(s string, n int) string {
	if n > 73 {
		return strings.Repeat(s, n-73)
	}
	return s + "73"
}

// C073 returns a closure.
func C073(k int) func(int) int {
	return func(x int) int {
		return x*74 + k
	}
}

// F074 is a top-level func.
func F074(s string, n int) string {
	if n > 74 {
		return strings.Repeat(s, n-74)
	}
	return s + "74"
}

// C074 returns a closure.
func C074(k int) func(int) int {
	return func(x int) int {
		return x*75 + k
	}
}

// F075 is a top-level func.
func F075(s string, n int) string {
	if n > 75 {
		return strings.Repeat(s, n-75)
	}
	return s + "75"
}

// C075 returns a closure.
func C075(k int) func(int) int {
	return func(x int) int {
		return x*76 + k
	}
}

// F076 is a top-level func.
func F076(s string, n int) string {
	if n > 76 {
		return strings.Repeat(s, n-76)
	}
	return s + "76"
}

// C076 returns a closure.
func C076(k int) func(int) int {
	return func(x int) int {
		return x*77 + k
	}
}

// F077 is a top-level func.
func F077(s string, n int) string {
	if n > 77 {
		return strings.Repeat(s, n-77)
	}
	return s + "77"
}

// C077 returns a closure.
func C077(k int) func(int) int {
	return func(x int) int {
		return x*78 + k
	}
}

// F078 is a top-level func.
func F078(s string, n int) string {
	if n > 78 {
		return strings.Repeat(s, n-78)
	}
	return s + "78"
}

// C078 returns a closure.
func C078(k int) func(int) int {
	return func(x int) int {
		return x*79 + k
	}
}

// F079 is a top-level func.
func F079(s string, n int) string {
	if n > 79 {
		return strings.Repeat(s, n-79)
	}
	return s + "79"
}

// C079 returns a closure.
func C079(k int) func(int) int {
	return func(x int) int {
		return x*80 + k
	}
}

// F080 is a top-level func.
func F080(s string, n int) string {
	if n > 80 {
		return strings.Repeat(s, n-80)
	}
	return s + "80"
}

// C080 returns a closure.
func C080(k int) func(int) int {
	return func(x int) int {
		return x*81 + k
	}
}

// F081 is a top-level func.
func F081(s string, n int) string {
	if n > 81 {
		return strings.Repeat(s, n-81)
	}
	return s + "81"
}

// C081 returns a closure.
func C081(k int) func(int) int {
	return func(x int) int {
		return x*82 + k
	}
}

// F082 is a top-level func.
func F082(s string, n int) string {
	if n > 82 {
		return strings.Repeat(s, n-82)
	}
	return s + "82"
}

// C082 returns a closure.
func C082(k int) func(int) int {
	return func(x int) int {
		return x*83 + k
	}
}

// F083 is a top-level func.
func F083(s string, n int) string {
	if n > 83 {
		return strings.Repeat(s, n-83)
	}
	return s + "83"
}

// C083 returns a closure.
func C083(k int) func(int) int {
	return func(x int) int {
		return x*84 + k
	}
}

// F084 is a top-level func.
func F084(s string, n int) string {
	if n > 84 {
		return strings.Repeat(s, n-84)
	}
	return s + "84"
}

// C084 returns a closure.
func C084(k int) func(int) int {
	return func(x int) int {
		return x*85 + k
	}
}

// F085 is a top-level func.
func F085(s string, n int) string {
	if n > 85 {
		return strings.Repeat(s, n-85)
	}
	return s + "85"
}

// C085 returns a closure.
func C085(k int) func(int) int {
	return func(x int) int {
		return x*86 + k
	}
}

// F086 is a top-level func.
func F086(s string, n int) string {
	if n > 86 {
		return strings.Repeat(s, n-86)
	}
	return s + "86"
}

// C086 returns a closure.
func C086(k int) func(int) int {
	return func(x int) int {
		return x*87 + k
	}
}

// F087 is a top-level func.
func F087(s string, n int) string {
	if n > 87 {
		return strings.Repeat(s, n-87)
	}
	return s + "87"
}

// C087 returns a closure.
func C087(k int) func(int) int {
	return func(x int) int {
		return x*88 + k
	}
}

// F088 is a top-level func.
func F088(s string, n int) string {
	if n > 88 {
		return strings.Repeat(s, n-88)
	}
	return s + "88"
}

// C088 returns a closure.
func C088(k int) func(int) int {
	return func(x int) int {
		return x*89 + k
	}
}

// F089 is a top-level func.
func F089(s string, n int) string {
	if n > 89 {
		return strings.Repeat(s, n-89)
	}
	return s + "89"
}

// C089 returns a closure.
func C089(k int) func(int) int {
	return func(x int) int {
		return x*90 + k
	}
}

// F090 is a top-level func.
func F090(s string, n int) string {
	if n > 90 {
		return strings.Repeat(s, n-90)
	}
	return s + "90"
}

// C090 returns a closure.
func C090(k int) func(int) int {
	return func(x int) int {
		return x*91 + k
	}
}

// F091 is a top-level func.
func F091(s string, n int) string {
	if n > 91 {
		return strings.Repeat(s, n-91)
	}
	return s + "91"
}

// C091 returns a closure.
func C091(k int) func(int) int {
	return func(x int) int {
		return x*92 + k
	}
}

// F092 is a top-level func.
func F092(s string, n int) string {
	if n > 92 {
		return strings.Repeat(s, n-92)
	}
	return s + "92"
}

// C092 returns a closure.
func C092(k int) func(int) int {
	return func(x int) int {
		return x*93 + k
	}
}

// F093 is a top-level func.
func F093(s string, n int) string {
	if n > 93 {
		return strings.Repeat(s, n-93)
	}
	return s + "93"
}

// C093 returns a closure.
func C093(k int) func(int) int {
	return func(x int) int {
		return x*94 + k
	}
}

// F094 is a top-level func.
func F094(s string, n int) string {
	if n > 94 {
		return strings.Repeat(s, n-94)
	}
	return s + "94"
}

// C094 returns a closure.
func C094(k int) func(int) int {
	return func(x int) int {
		return x*95 + k
	}
}

// F095 is a top-level func.
func F095(s string, n int) string {
	if n > 95 {
		return strings.Repeat(s, n-95)
	}
	return s + "95"
}

// C095 returns a closure.
func C095(k int) func(int) int {
	return func(x int) int {
		return x*96 + k
	}
}

// F096 is a top-level func.
func F096(s string, n int) string {
	if n > 96 {
		return strings.Repeat(s, n-96)
	}
	return s + "96"
}

// C096 returns a closure.
func C096(k int) func(int) int {
	return func(x int) int {
		return x*97 + k
	}
}

// F097 is a top-level func.
func F097(s string, n int) string {
	if n > 97 {
		return strings.Repeat(s, n-97)
	}
	return s + "97"
}

// C097 returns a closure.
func C097(k int) func(int) int {
	return func(x int) int {
		return x*98 + k
	}
}

// F098 is a top-level func.
func F098(s string, n int) string {
	if n > 98 {
		return strings.Repeat(s, n-98)
	}
	return s + "98"
}

// C098 returns a closure.
func C098(k int) func(int) int {
	return func(x int) int {
		return x*99 + k
	}
}

// F099 is a top-level func.
func F099(s string, n int) string {
	if n > 99 {
		return strings.Repeat(s, n-99)
	}
	return s + "99"
}

// C099 returns a closure.
func C099(k int) func(int) int {
	return func(x int) int {
		return x*100 + k
	}
}

// Funcs returns the 200 funcs: F000..F099, then a closure from each of
// C000..C099.
func Funcs() []any {
	return []any{
		F000,
		F001,
		F002,
		F003,
		F004,
		F005,
		F006,
		F007,
		F008,
		F009,
		F010,
		F011,
		F012,
		F013,
		F014,
		F015,
		F016,
		F017,
		F018,
		F019,
		F020,
		F021,
		F022,
		F023,
		F024,
		F025,
		F026,
		F027,
		F028,
		F029,
		F030,
		F031,
		F032,
		F033,
		F034,
		F035,
		F036,
		F037,
		F038,
		F039,
		F040,
		F041,
		F042,
		F043,
		F044,
		F045,
		F046,
		F047,
		F048,
		F049,
		F050,
		F051,
		F052,
		F053,
		F054,
		F055,
		F056,
		F057,
		F058,
		F059,
		F060,
		F061,
		F062,
		F063,
		F064,
		F065,
		F066,
		F067,
		F068,
		F069,
		F070,
		F071,
		F072,
		F073,
		F074,
		F075,
		F076,
		F077,
		F078,
		F079,
		F080,
		F081,
		F082,
		F083,
		F084,
		F085,
		F086,
		F087,
		F088,
		F089,
		F090,
		F091,
		F092,
		F093,
		F094,
		F095,
		F096,
		F097,
		F098,
		F099,
		C000(1),
		C001(1),
		C002(1),
		C003(1),
		C004(1),
		C005(1),
		C006(1),
		C007(1),
		C008(1),
		C009(1),
		C010(1),
		C011(1),
		C012(1),
		C013(1),
		C014(1),
		C015(1),
		C016(1),
		C017(1),
		C018(1),
		C019(1),
		C020(1),
		C021(1),
		C022(1),
		C023(1),
		C024(1),
		C025(1),
		C026(1),
		C027(1),
		C028(1),
		C029(1),
		C030(1),
		C031(1),
		C032(1),
		C033(1),
		C034(1),
		C035(1),
		C036(1),
		C037(1),
		C038(1),
		C039(1),
		C040(1),
		C041(1),
		C042(1),
		C043(1),
		C044(1),
		C045(1),
		C046(1),
		C047(1),
		C048(1),
		C049(1),
		C050(1),
		C051(1),
		C052(1),
		C053(1),
		C054(1),
		C055(1),
		C056(1),
		C057(1),
		C058(1),
		C059(1),
		C060(1),
		C061(1),
		C062(1),
		C063(1),
		C064(1),
		C065(1),
		C066(1),
		C067(1),
		C068(1),
		C069(1),
		C070(1),
		C071(1),
		C072(1),
		C073(1),
		C074(1),
		C075(1),
		C076(1),
		C077(1),
		C078(1),
		C079(1),
		C080(1),
		C081(1),
		C082(1),
		C083(1),
		C084(1),
		C085(1),
		C086(1),
		C087(1),
		C088(1),
		C089(1),
		C090(1),
		C091(1),
		C092(1),
		C093(1),
		C094(1),
		C095(1),
		C096(1),
		C097(1),
		C098(1),
		C099(1),
	}
}
