import json
from collections import Counter
def pc(day, rows): return [{"type":"person_count","at":f"{day}T{t}","value":v} for t,v in rows]
def rows(s):
    out=[]
    for tok in s.split():
        t,v=tok.split("=");out.append((t,int(v)))
    return out
# ---- lobby_morning (New York), now 10:14
L=[]
L+=pc("2026-03-09",rows("13:00=20 13:30=24 14:00=31 14:30=27 15:00=22 15:30=18 16:00=14 16:30=9 17:00=5 17:30=2 18:00=0"))
L+=pc("2026-03-10",rows("07:00=2 07:10=3 07:20=4 07:30=6 07:40=8 07:50=11 08:00=14 08:10=17 08:20=15 08:30=12 08:40=10 08:50=9 09:00=8 09:10=7 09:20=9 09:30=10 09:40=12 09:50=13 10:00=15 10:10=16"))
L+=[{"type":"vehicle","at":"2026-03-09T14:20","count":2},
    {"type":"vehicle","at":"2026-03-10T07:12","count":1},{"type":"vehicle","at":"2026-03-10T07:48","count":3},
    {"type":"vehicle","at":"2026-03-10T08:05","count":2},{"type":"vehicle","at":"2026-03-10T09:30","count":1},
    {"type":"vehicle","at":"2026-03-10T09:58","count":2}]
L+=[{"type":"person","at":"2026-03-10T07:40","track_id":"t4","dwell_s":30},
    {"type":"person","at":"2026-03-10T08:15","track_id":"t3","dwell_s":60},
    {"type":"person","at":"2026-03-10T09:20","track_id":"t5","dwell_s":90,"subtype":"unrecognized"},
    {"type":"person","at":"2026-03-10T09:55","track_id":"t7","dwell_s":420,"subtype":"unrecognized"},
    {"type":"person","at":"2026-03-10T10:14","track_id":"t11","dwell_s":1560,"subtype":"unrecognized"}]
# ---- lobby_empty (New York, Sunday), now 14:00
E=pc("2026-03-15",[(f"{h:02d}:{m:02d}",1 if (h,m) in [(11,20),(11,30)] else 0) for h in range(10,14) for m in range(0,60,10)])
E+=[{"type":"person","at":"2026-03-15T11:30","track_id":"t2","dwell_s":600}]
# ---- garage_overnight (London), now 01:45 on 03-11
G=pc("2026-03-10",rows("18:00=6 18:10=7 18:20=5 18:30=4 18:40=4 18:50=3 19:00=3 19:10=2 19:20=2 19:30=3 19:40=2 19:50=1 20:00=1 20:10=2 20:20=1 20:30=1 20:40=0 20:50=0 21:00=1 21:10=0 21:20=0 21:30=0 21:40=0 21:50=0 22:00=0 22:10=1 22:20=1 22:30=0 22:40=0 22:50=0 23:00=0 23:10=0 23:20=0 23:30=2 23:40=2 23:50=1"))
G+=pc("2026-03-11",rows("00:00=0 00:10=0 00:20=0 00:30=0 00:40=0 00:50=1 01:00=1 01:10=1 01:20=1 01:30=1 01:40=1"))
G+=[{"type":"vehicle","at":"2026-03-10T18:02","count":5},{"type":"vehicle","at":"2026-03-10T18:45","count":4},
    {"type":"vehicle","at":"2026-03-10T19:30","count":3},{"type":"vehicle","at":"2026-03-10T20:15","count":2},
    {"type":"vehicle","at":"2026-03-10T22:05","count":1},{"type":"vehicle","at":"2026-03-10T23:28","count":2},
    {"type":"vehicle","at":"2026-03-11T01:02","count":1}]
G+=[{"type":"person","at":"2026-03-10T18:05","track_id":"g31","dwell_s":120},
    {"type":"person","at":"2026-03-10T22:10","track_id":"g35","dwell_s":600,"subtype":"unrecognized"},
    {"type":"person","at":"2026-03-10T23:30","track_id":"g38","dwell_s":900},
    {"type":"person","at":"2026-03-10T23:30","track_id":"g39","dwell_s":900},
    {"type":"person","at":"2026-03-11T01:44","track_id":"g42","dwell_s":3240,"subtype":"unrecognized"}]
# ---- atrium_busy (Los Angeles), now 12:30
A=pc("2026-03-10",rows("11:00=22 11:05=25 11:10=28 11:15=30 11:20=33 11:25=37 11:30=40 11:35=42 11:40=45 11:45=47 11:50=50 11:55=52 12:00=55 12:05=57 12:10=59 12:15=61 12:20=63 12:25=58 12:30=56"))
A+=[{"type":"vehicle","at":"2026-03-10T11:12","count":1},{"type":"vehicle","at":"2026-03-10T12:02","count":1}]
A+=[{"type":"person","at":"2026-03-10T12:10","track_id":"a102","dwell_s":300},
    {"type":"person","at":"2026-03-10T12:28","track_id":"a101","dwell_s":45,"subtype":"unrecognized"}]
scen={
 "lobby_morning":{"timeZone":"America/New_York","now":"2026-03-10T10:14","location":"lobby","capacity":40,"detections":L},
 "lobby_empty":{"timeZone":"America/New_York","now":"2026-03-15T14:00","location":"lobby","capacity":40,"detections":E},
 "garage_overnight":{"timeZone":"Europe/London","now":"2026-03-11T01:45","location":"parking garage","capacity":20,"detections":G},
 "atrium_busy":{"timeZone":"America/Los_Angeles","now":"2026-03-10T12:30","location":"atrium","capacity":60,"detections":A},
}
cases=[]
def q(sc,cat,query,outcome="answer",yn=None,num=None,time=None,metric=None):
    e={"outcome":outcome}
    if yn: e["yes_no"]=yn
    if num is not None: e["number"]=num
    if time: e["time"]=time
    if metric: e["metric"]=metric
    cases.append({"id":"s%03d"%(len(cases)+1),"scenario":sc,"category":cat,"query":query,"expect":e})
def ask(sc,query): q(sc,"out_of_scope",query,outcome="ask")
S="lobby_morning"
q(S,"count_now","how many people are in the lobby right now?",num=16,metric="people")
q(S,"count_now","how many ppl here",num=16,metric="people")
q(S,"empty","is the lobby empty",yn="no",num=16)
q(S,"empty","Is anyone in the lobby at the moment?",yn="yes",num=16)
q(S,"crowding","is the lobby crowded",yn="no",metric="crowd_density")
q(S,"crowding","how full is it?",metric="crowd_density")
q(S,"peak","what was the busiest it got this morning?",num=17,time="08:10",metric="people")
q(S,"peak","what's the peak in the last hour",num=16,metric="people")
q(S,"average","what's the average number of people in the lobby over the last hour?",metric="people")
q(S,"trend","is it getting busier?",yn="yes")
q(S,"trend","has the crowd been growing over the last hour?",yn="yes")
q(S,"trend","was it getting quieter between 8:10 and 9:10?",yn="yes")
q(S,"last_seen","when was the last car seen?",time="09:58",metric="vehicles")
q(S,"last_seen","when did you last see someone you didn't recognise?",time="10:14")
q(S,"threshold","were there more than 5 people at any point in the last hour?",yn="yes")
q(S,"threshold","did it go over 20 people at any point this morning?",yn="no")
q(S,"threshold","were there ever more than 15 people since 8?",yn="yes")
q(S,"dwell","is someone hanging around the entrance?",yn="yes")
q(S,"dwell","how long has that guy been hanging around",num=26)
q(S,"dwell","has anyone been here longer than 20 minutes?",yn="yes")
q(S,"unrecognized","any strangers this morning?",yn="yes",num=3)
q(S,"unrecognized","any unrecognised people in the last 10 minutes?",yn="yes",num=1)
q(S,"suspicious","any suspicious activity?",yn="yes",metric="anomalies")
q(S,"vehicles","what's the most vehicles seen at once this morning?",num=3,metric="vehicles")
q(S,"vehicles","any cars in the last 10 minutes?",yn="no",metric="vehicles")
q(S,"vehicles","have there been any vehicles since 9?",yn="yes",metric="vehicles")
q(S,"time_phrases","how many people were in the lobby at 9?",num=8,metric="people")
q(S,"time_phrases","what was the peak yesterday afternoon",num=31,time="14:00",metric="people")
q(S,"time_phrases","busiest moment between 2 and 3pm yesterday?",num=31,time="14:00",metric="people")
q(S,"time_phrases","how many people were here at half past 7",num=6,metric="people")
ask(S,"who is the man in the red coat")
ask(S,"how's the weather")
S="lobby_empty"
q(S,"count_now","how many people are in the lobby",num=0,metric="people")
q(S,"empty","is the lobby empty?",yn="yes")
q(S,"empty","anyone here?",yn="no")
q(S,"empty","is it empty right now",yn="yes")
q(S,"crowding","is it crowded?",yn="no",metric="crowd_density")
q(S,"average","average number of people in the last hour",num=0,metric="people")
q(S,"last_seen","when was someone last in the lobby?",time="11:30")
q(S,"vehicles","any cars today?",yn="no",metric="vehicles")
q(S,"unrecognized","any strangers today?",yn="no")
q(S,"dwell","is anyone loitering?",yn="no")
q(S,"suspicious","anything suspicious?",yn="no",metric="anomalies")
q(S,"time_phrases","was anyone here in the last 3 hours?",yn="yes")
q(S,"peak","what was the peak today",num=1,metric="people")
q(S,"trend","is it getting busier?",yn="no")
ask(S,"what's the wifi password")
S="garage_overnight"
q(S,"count_now","how many people are in the garage now?",num=1,metric="people")
q(S,"empty","is the garage empty?",yn="no",num=1)
q(S,"crowding","is it crowded down there",yn="no",metric="crowd_density")
q(S,"peak","what's the most people there's been since 10pm?",num=2,metric="people")
q(S,"peak","busiest it's been since midnight?",num=1,metric="people")
q(S,"average","average headcount since midnight?",metric="people")
q(S,"trend","has it been getting quieter since 6pm?",yn="yes")
q(S,"last_seen","when was the last car seen?",time="01:02",metric="vehicles")
q(S,"threshold","were there more than 5 people at any point after 7pm?",yn="no")
q(S,"threshold","more than 1 person at once since midnight?",yn="no")
q(S,"dwell","is someone hanging around?",yn="yes")
q(S,"dwell","how long has that person been down there?",num=54)
q(S,"unrecognized","any strangers tonight?",yn="yes",num=2)
q(S,"unrecognized","any unrecognised people since midnight",yn="yes",num=1)
q(S,"suspicious","anything suspicious tonight?",yn="yes",metric="anomalies")
q(S,"vehicles","what's the most cars seen since 6pm?",num=5,metric="vehicles")
q(S,"vehicles","any cars in the last 10 mins?",yn="no",metric="vehicles")
q(S,"time_phrases","how many people were in here at 11pm?",num=0,metric="people")
q(S,"time_phrases","how many people were here at 11:30 last night",num=2,metric="people")
ask(S,"is the barrier arm broken again")
ask(S,"what's the number plate of the last car")
S="atrium_busy"
q(S,"count_now","how many people in the atrium?",num=56,metric="people")
q(S,"crowding","is the atrium crowded?",yn="yes",metric="crowd_density")
q(S,"crowding","is it over capacity right now?",yn="no")
q(S,"crowding","how full is the atrium",metric="crowd_density")
q(S,"threshold","was it ever over capacity in the last hour?",yn="yes")
q(S,"threshold","were there more than 50 people between 11 and 12?",yn="yes")
q(S,"threshold","did it drop below 20 at any point since 11?",yn="no")
q(S,"peak","peak in the last hour?",num=63,time="12:20",metric="people")
q(S,"trend","is it getting busier?",yn="no")
q(S,"trend","has it been filling up since 11?",yn="yes")
q(S,"empty","is the atrium empty?",yn="no",num=56)
q(S,"last_seen","when was the last vehicle seen",time="12:02",metric="vehicles")
q(S,"vehicles","any vehicles in the last 15 minutes",yn="no",metric="vehicles")
q(S,"dwell","anyone been hanging around for a long time?",yn="no")
q(S,"unrecognized","any unrecognised people in the last 5 minutes?",yn="yes",num=1)
q(S,"suspicious","anything suspicious going on?",metric="anomalies")
q(S,"time_phrases","how many people were there at 11:30?",num=40,metric="people")
q(S,"time_phrases","how many at noon",num=55,metric="people")
q(S,"average","average occupancy between 11 and 11:30",metric="people")
ask(S,"who's the woman at the info desk")
ask(S,"what's for lunch in the cafe today")
ask(S,"turn the lights on in the atrium")
json.dump({"description":"Blind held-out scene questions. Times local wall clock. Current people = latest person_count at or before now. 'Hanging around' numbers = dwell_s of the latest detection (taken exactly at now) in whole minutes. Average numbers omitted except trivially all-zero windows.","scenarios":scen,"cases":cases},open("/work/blind/scene.json","w"),indent=1)
print(len(cases),Counter(c["category"] for c in cases))
